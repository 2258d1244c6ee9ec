"""To-be-recorded analysis for a function's scalar locals.

A statement that overwrites a local needs to save the old value only when the backward
sweep will read that value: when the backward part of some statement executed since the
value was set reads the variable (or the statement's own backward part reads the value it
overwrites). This is a forward data-flow problem over the primal statements; the set
`req` holds the locals whose current values are still required. Which locals each
statement's backward part reads is taken from the generated backward code itself, so the
analysis sees every read the transform emits (adjoints, loop replays, undone increments);
the transform and this analysis are iterated together to a fixed point.

Only scalar locals (and by-value parameters) whose address is never taken are tracked:
nothing but the function's own statements can change them. Everything else is decided
per memory node (see adjoint.ReverseTransform.R).
"""
from adgen import ir
from adgen.analysis.loops import assigned_in
from adgen.rules import LIBRARY_FUNCTIONS


class LocalTBR:
    def __init__(self, tracked, bwd_of, replayed, tails=None):
        self.tracked = tracked      # the symbols analysed
        self.bwd_of = bwd_of        # id(primal statement) -> its backward statements
        self.replayed = replayed    # id(For) -> counter, for loops replayed from the start
        # id(loop) -> backward statements at the start of each of its backward iterations
        # (recomputations): they read at the point where the forward iteration ends
        self.tails = tails or {}
        self.saves = {}             # id(primal statement) -> symbols it must save
        # (id(statement), split) -> (it, own_reads): the fixed point of a loop flows again
        # through the loops inside it, whose backward statements stay the same
        self._own = {}
        self._heads = {}            # id(loop body) -> the fixed point its loop last reached

    def run(self, stmts):
        """(saves, required at exit): what each statement saves, and the locals whose
        final values the backward sweep reads."""
        return self.saves, self.flow(stmts, frozenset())

    # ------------------------------------------------------------- data flow
    def flow(self, stmts, req):
        for s in stmts:
            req = self.transfer(s, req)
        return req

    def save(self, s, syms):
        if syms:
            self.saves.setdefault(id(s), set()).update(syms)

    def transfer(self, s, req):
        if isinstance(s, ir.Block):
            return self.flow(s.stmts, req)
        if isinstance(s, ir.If):
            branches = [s.then.stmts] + ([s.other.stmts] if s.other else [])
            own, _ = self.own_reads(s, [st for b in branches for st in b])
            out = self.flow(s.then.stmts, req)
            out |= self.flow(s.other.stmts, req) if s.other else req
            return out | own
        if isinstance(s, ir.For) and id(s) in self.replayed:
            var = self.replayed[id(s)]
            own, _ = self.own_reads(s, s.body.stmts)
            if var in req:
                self.save(s, {var})
            # the counter is set by the loop and replayed by the backward sweep: its
            # values inside are never restored from the forward sweep's
            head = (req - {var}) | own
            return self.loop(s.body.stmts, head, kill={var}, tail=self.tail_reads(s)) | own
        if isinstance(s, ir.For):
            own, _ = self.own_reads(s, s.init + s.body.stmts + s.step)
            req = self.flow(s.init, req)
            return self.loop(s.body.stmts, req | own, tail=self.tail_reads(s),
                             step=s.step) | own
        if isinstance(s, (ir.While, ir.DoWhile)):
            own, _ = self.own_reads(s, s.body.stmts)
            return self.loop(s.body.stmts, req | own, tail=self.tail_reads(s)) | own
        own, popped, after = self.own_reads(s, [], split=True)
        written = self.written(s)
        self.save(s, written & (req | own))
        return (req - written) | (own - popped) | after

    def loop(self, body, head, kill=frozenset(), tail=frozenset(), step=()):
        """Required set at a loop's exit: its head's, to a fixed point over the body (and
        the step of a for loop); `tail`, what is read where the body ends, before the step.

        A loop inside another is reached again at each iteration of the outer one, with a
        set that only grows (the flow is monotone): its fixed point then starts from the
        one it reached before, which lies below the new one, instead of from the bottom,
        so that a nest does not iterate each loop once per iteration of those around it;
        a set the last fixed point holds already leads to that fixed point, whose pass
        recorded the saves. The saves are the same: the last pass runs at the fixed point."""
        key = id(body)
        before = self._heads.get(key)
        if before is not None:
            if head <= before:
                return before
            head = head | before
        while True:
            out = self.flow(step, self.flow(body, head) | tail)
            new = head | (out - kill)
            if new == head:
                self._heads[key] = head
                return head
            head = new

    def written(self, s):
        lhs = s.lhs if isinstance(s, ir.Assign) else None
        if isinstance(lhs, ir.Ref) and lhs.sym in self.tracked:
            return {lhs.sym}
        return set()

    # ------------------------------------------------------ backward reads
    def own_reads(self, s, children, split=False):
        """Tracked locals read by s's own backward statements (not its children's), and
        those its backward statements restore by popping; with split, also apart those
        read before anything is restored (freeing a block: the pointer as s left it)."""
        known = self._own.get((id(s), split))
        if known is None or known[0] is not s:
            known = self._own[(id(s), split)] = (s, self._own_reads(s, children, split))
        return known[1]

    def _own_reads(self, s, children, split):
        skip = {id(b) for c in children for b in self.bwd_of.get(id(c), ())}
        skip |= {id(t) for t in self.tails.get(id(s), ())}
        reads, popped, after = set(), set(), set()
        self._visit(self.bwd_of.get(id(s), ()), skip, reads, popped, after if split else reads)
        if not split:
            return frozenset(reads), popped
        return frozenset(reads), popped, frozenset(after)

    def _visit(self, stmts, skip, reads, popped, after):
        for st in ir.stmts_walk(list(stmts), skip):
            if isinstance(st, ir.Raw) and st.template == "release":
                self._reads(st.args["ptr"], after)
            elif isinstance(st, ir.Assign):
                self._write_target(st.lhs, reads)
                self._reads(st.rhs, reads)
            elif isinstance(st, ir.Pop):
                if isinstance(st.target, ir.Ref):
                    sym = self._primal(st.target.sym)
                    if sym in self.tracked:
                        popped.add(sym)
                else:
                    self._write_target(st.target, reads)
            elif isinstance(st, ir.Raw):
                for v in st.args.values():
                    if isinstance(v, ir.Expr):
                        self._reads(v, reads)
                    elif isinstance(v, ir.Symbol) and self._primal(v) in self.tracked:
                        reads.add(self._primal(v))
            else:
                for e in ir.stmt_exprs(st):
                    self._reads(e, reads)

    def tail_reads(self, loop):
        reads = set()
        self._visit(self.tails.get(id(loop), ()), set(), reads, set(), reads)
        return frozenset(reads)

    def _write_target(self, e, reads):
        if not isinstance(e, ir.Ref):
            self._reads(e, reads)

    def _reads(self, e, reads):
        if e is None:
            return
        for sub in ir.walk(e):
            if isinstance(sub, ir.Ref):
                sym = self._primal(sub.sym)
                if sym in self.tracked:
                    reads.add(sym)
            elif isinstance(sub, ir.SizeOf) and isinstance(sub.of, ir.Expr):
                self._reads(sub.of, reads)

    @staticmethod
    def _primal(sym):
        """A pointer's shadow travels with the pointer: reading it needs the pointer's
        save. (A float's adjoint is no read of the float.)"""
        primal = getattr(sym, "primal", None)
        if primal is not None and primal.type.resolved().is_pointer:
            return primal
        return sym


def tracked_locals(f):
    """Scalar locals and by-value parameters of f whose address is never taken."""
    from adgen.analysis.loops import address_taken
    taken = address_taken(f)
    out = set()
    for sym in list(f.locals) + list(f.params):
        t = sym.type.resolved()
        if sym not in taken and (t.is_int or t.is_float or t.is_pointer) and \
                not isinstance(t, ir.Arr):
            out.add(sym)
    return out


def _scalar(e):
    """A number, or the address of an adjoint or temporary variable (no primal memory)."""
    if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Ref):
        sym = e.arg.sym
        return getattr(sym, "primal", None) is not None or getattr(sym, "is_ad", False)
    t = e.type.resolved() if e.type is not None else None
    return t is not None and (t.is_float or t.is_int)


def _points_into(e):
    """p for `p + k` and `&p[k]` with p a variable, else None."""
    if isinstance(e, ir.Binary) and e.op in "+-" and isinstance(e.left, ir.Ref) and \
            e.left.type.resolved().is_pointer:
        return e.left.sym
    if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Index) and \
            isinstance(e.arg.base, ir.Ref) and e.arg.base.type.resolved().is_pointer:
        return e.arg.base.sym
    return None


def _leaves(e, t):
    """Lvalues reaching each kind of number in e of type t (element 0 of each array)."""
    r = t.resolved()
    if isinstance(r, ir.Arr):
        return _leaves(ir.Index(e, ir.Const("0", ir.INT), r.elem), r.elem)
    if isinstance(r, ir.Struct):
        return [x for name, ft in r.sdef.fields
                for x in _leaves(ir.Member(e, name, False, ft), ft)]
    return [e]


class _Unknown:
    """Stands for 'any memory': backward statements whose reads cannot be listed."""


ANY = _Unknown()


class ArraySaves:
    """Writes to array elements that need no saving because an earlier write already
    saved the same elements and no backward statement reads them in between.

    `for (i = 0; i < d; i++) out[i] = ...;` followed by `out[j] += ...` for j in 0..d-1
    (or `y[i] = 0;` followed by `y[i] += ...`): the first write saves out[0..d-1]; its
    restoration in the backward sweep brings back the values from before it, and nothing
    reads out in between, so the later write need not be undone. A fact (node, base
    symbol, first, last) says that elements first..last of the array, reached through
    that symbol, were saved since the backward sweep last read them; index ranges are
    compared as polynomials over the enclosing counted loops (see extent.py)."""

    def __init__(self, func, bwd_of, node_of, calc, no_globals=False, fresh_params=(),
                 callees=(), touched=None):
        self.func = func
        self.no_globals = no_globals    # the program has no global variables
        self.bwd_of = bwd_of        # id(primal statement) -> its backward statements
        self.node_of = node_of      # memory node of an element expression
        self.calc = calc            # extent walker of the function: polynomials, loops
        self.covered = set()        # id(statement) of the writes that need no saving
        self.inversions = []        # nodes of the writes walked that are undone, not saved
        # (function, parameter position): the parameter points to memory whose values
        # nothing needs when the function is called (see calls)
        self.fresh_params = fresh_params
        self.callees = callees      # the names of the functions whose calls are watched
        self.sites = {}             # (callee, position) -> fresh at every call walked
        # name of a function the backward sweep may call -> the memory it may read: all
        # the primal memory the function it stands for reads or writes (None: any)
        self.touched = touched or {}
        # id(backward statement) -> (it, backward_reads of it and what is inside it): a
        # loop's backward statements hold those of the loops inside it, read at each level
        self._backward_reads = {}

    def run(self, stmts):
        self.block(stmts, self.fresh_arrays(), [])
        return self.covered

    def fresh_arrays(self):
        """A local array or struct starts with values nothing will ever need: as if
        saved whole (bounds None: any element or field written through the variable itself
        is in it)."""
        facts = []
        for sym in self.func.locals:
            if isinstance(sym.type.resolved(), (ir.Arr, ir.Struct)):
                nodes = {self.node_of(e) for e in _leaves(ir.Ref(sym), sym.type)}
                facts += [(node, sym, None, None) for node in nodes if node is not None]
        for k, p in enumerate(self.func.params):
            t = p.type.resolved()
            if (self.func.name, k) in self.fresh_params and isinstance(t, ir.Ptr):
                node = self.node_of(ir.Index(ir.Ref(p), ir.Const("0", ir.INT), t.target))
                if node is not None:
                    facts.append((node, p, None, None))
        return facts

    def calls(self, s, facts):
        """Notes, for each pointer argument of a call s makes, whether the memory it
        hands over holds values nothing needs (a fresh local array, one whose values were
        saved since the backward sweep last read them): then the callee need not save
        what it overwrites there, for this call."""
        call = ir.statement_call(s)
        if call is None or call.func not in self.callees:
            return
        for k, a in enumerate(call.args):
            if not a.type.resolved().is_pointer and not a.type.resolved().is_array:
                continue
            fresh = False
            if isinstance(a, ir.Ref):
                t = a.type.resolved()
                elem = t.elem if isinstance(t, ir.Arr) else ir.pointee(t)
                node = self.node_of(ir.Index(a, ir.Const("0", ir.INT), elem)) \
                    if elem is not None else None
                fresh = node is not None and any(
                    f[0] is node and f[1] is a.sym and f[2] is None for f in facts)
            key = (call.func, k)
            self.sites[key] = self.sites.get(key, True) and fresh

    def block(self, stmts, facts, loops):
        for s in stmts:
            facts = self.stmt(s, facts, loops)
        return facts

    def stmt(self, s, facts, loops):
        self.calls(s, facts)
        reads = self.backward_reads(self.bwd_of.get(id(s), ()))
        facts = [f for f in facts if reads is not ANY and f[0] not in reads]
        if not isinstance(s, ir.Assign):
            # a base pointer the statement may move: what was said through it is void
            moved = assigned_in([s])
            facts = [f for f in facts if f[1] not in moved]
        if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref):
            return self.pointer_assign(s, facts)
        if isinstance(s, ir.Assign):
            target = self.element(s.lhs, loops)
            if target is not None:
                node, base, idx = target
                if any(self.contains(f, node, base, idx, loops) for f in facts):
                    self.covered.add(id(s))
                elif self.undone(s, node):
                    # undone (x -= e) rather than restored: the undoing reads the values
                    # later writes leave, so they must be restored too
                    self.inversions.append(node)
                    facts = [f for f in facts if f[0] is not node]
                elif idx is not None:
                    facts.append((node, base, idx, idx))
            return facts
        if isinstance(s, ir.Block):
            return self.block(s.stmts, facts, loops)
        bounds = None
        if isinstance(s, ir.For):
            from adgen.analysis.extent import NotPolynomial
            try:
                bounds = self.calc.loop_bounds(s, loops)
            except NotPolynomial:
                pass
        inner = loops + ([bounds] if bounds else [])
        bodies = [s.then.stmts] + ([s.other.stmts] if s.other else []) \
            if isinstance(s, ir.If) else [s.body.stmts] if isinstance(
                s, (ir.For, ir.While, ir.DoWhile)) else []
        undone = self.inner_walk(bodies, facts, inner)
        facts = [f for f in facts if f[0] not in undone]
        if bounds is not None and reads is not ANY:
            facts = facts + self.loop_facts(s, bounds, reads | undone)
        return facts

    def inner_walk(self, bodies, facts, loops):
        """Walk nested statement lists; the nodes that an undone write among them reads.
        Facts on those nodes are void inside too (another iteration, in the backward
        sweep, reads them): walked again without them until nothing new is undone."""
        kill = set()
        while True:
            covered, mark = set(self.covered), len(self.inversions)
            for stmts in bodies:
                self.block(stmts, [f for f in facts if f[0] not in kill], loops)
            undone = set(self.inversions[mark:])
            if undone <= kill:
                return undone
            kill |= undone
            self.covered = covered
            del self.inversions[mark:]

    def undone(self, s, node):
        """True when s's backward statements undo its write (an assignment to its memory)
        instead of popping the old value."""
        return any(isinstance(st, ir.Assign) and self.node_of(st.lhs) is node
                   for st in ir.stmts_walk(list(self.bwd_of.get(id(s), ()))))

    def pointer_assign(self, s, facts):
        """`q = p`: what holds through p holds through q; `q = malloc(...)`: q points to
        memory whose first values nothing needs."""
        from adgen.transform.common import alloc_call
        q = s.lhs.sym
        facts = [f for f in facts if f[1] is not q]
        if not q.type.resolved().is_pointer:
            return facts
        rhs = s.rhs
        while isinstance(rhs, ir.Cast):
            rhs = rhs.arg
        if isinstance(rhs, ir.Ref):
            facts += [(node, q, first, last) for node, base, first, last in facts
                      if base is rhs.sym]
        elif _points_into(rhs) is not None:
            # q = p + k, q = &p[k]: q reaches the same block, fresh if p's whole block is
            p = _points_into(rhs)
            facts += [(node, q, None, None) for node, base, first, last in facts
                      if base is p and first is None]
        elif alloc_call(s.rhs) is not None and ir.pointee(q.type) is not None:
            node = self.node_of(ir.Index(ir.Ref(q), ir.Const("0", ir.INT), ir.pointee(q.type)))
            facts.append((node, q, None, None))
        return facts

    def loop_facts(self, loop, bounds, reads):
        """Facts from a counted loop writing base[var] at the top of its body, for every
        value of var, when nothing in the loop's backward sweep reads the array."""
        var, first, last = bounds
        out = []
        if reads is ANY:
            return out
        moved = assigned_in(loop.body.stmts)
        for st in loop.body.stmts:
            if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Index) and \
                    isinstance(st.lhs.index, ir.Ref) and st.lhs.index.sym is var:
                base, node = self.base_of(st.lhs), self.node_of(st.lhs)
                if base is not None and base not in moved and node is not None and \
                        node not in reads:
                    out.append((node, base, first, last))
        return out

    def base_of(self, lhs):
        """The symbol an element is reached through (facts about it end where it moves)."""
        base = lhs.base
        if not isinstance(base, ir.Ref):
            return None
        t = base.type.resolved()
        elem = lhs.type.resolved()
        if not (elem.is_float or elem.is_int):
            return None
        if isinstance(t, ir.Arr) and t.elem.resolved().is_array:
            return None
        return base.sym

    def element(self, lhs, loops):
        """(node, base symbol, index polynomial) of an element write, or None. A field
        or element deeper in a local array or struct (`s.u[i]`, `p[k].w`, `m[i][j]`) has
        index None: only the facts of the whole fresh variable hold it."""
        from adgen.analysis.extent import NotPolynomial
        if not isinstance(lhs, (ir.Index, ir.Member)):
            return None
        base = self.base_of(lhs) if isinstance(lhs, ir.Index) else None
        if base is None:
            root = ir.storage_symbol(lhs)
            if root is None or root not in self.func.locals or \
                    not (lhs.type.resolved().is_float or lhs.type.resolved().is_int):
                return None
            return self.node_of(lhs), root, None
        try:
            idx = self.calc.to_poly(lhs.index, loops)
        except NotPolynomial:
            idx = None      # (any element: held only by a fact on the whole block)
        return self.node_of(lhs), base, idx

    def contains(self, fact, node, base, idx, loops):
        fnode, fbase, first, last = fact
        if first is None:
            return fnode is node and fbase is base
        if idx is None:
            return False
        return fnode is node and fbase is base and \
            self.calc.nonneg_within(idx - first, loops) and \
            self.calc.nonneg_within(last - idx, loops)

    # ------------------------------------------------------ backward reads
    def backward_reads(self, stmts):
        """Memory nodes the backward statements read, restorations aside (a value put
        back reads nothing the forward sweep left), or ANY when they call a function."""
        found = set()
        for st in stmts:
            reads = self._statement_backward_reads(st)
            if reads is ANY:
                return ANY
            found |= reads
        return found

    def _statement_backward_reads(self, st):
        """backward_reads of one statement with those inside it."""
        known = self._backward_reads.get(id(st))
        if known is not None and known[0] is st:
            return known[1]
        reads = self._own_backward_reads(st)
        if reads is not ANY and isinstance(st, ir.COMPOUND):
            inner = self.backward_reads(list(ir.statements_inside(st)))
            reads = ANY if inner is ANY else reads | inner
        reads = reads if reads is ANY else frozenset(reads)
        self._backward_reads[id(st)] = (st, reads)
        return reads

    def _own_backward_reads(self, st):
        """What one backward statement reads itself (not the statements inside it)."""
        if isinstance(st, ir.Pop) or (isinstance(st, ir.Raw) and st.template == "keep"):
            return set()
        found = set()
        restored = None
        if isinstance(st, ir.Assign) and self.node_of(st.lhs) is not None:
            restored = self.node_of(st.lhs)     # primal memory written back
        exprs = list(ir.stmt_exprs(st))
        if isinstance(st, ir.Raw):
            exprs = [v for v in st.args.values() if isinstance(v, ir.Expr)]
        for e in exprs:
            for sub in ir.walk(e):
                if isinstance(sub, ir.Call) and sub.func in self.touched:
                    # a sweep of a differentiated callee: the memory that callee uses
                    found |= self.touched[sub.func]
                elif isinstance(sub, ir.Call) and (
                        LIBRARY_FUNCTIONS.get(sub.func) is None or
                        LIBRARY_FUNCTIONS[sub.func].kind not in ("math", "int")) and \
                        not (self.no_globals and all(_scalar(a) for a in sub.args)):
                    # a callee's backward sweep reaching memory: its reads unknown (one
                    # given only numbers, in a program without globals, reads none)
                    return ANY
                n = self.node_of(sub)
                if n is not None and n is not restored:
                    found.add(n)
        return found

