"""Recomputation instead of storing: scratch memory refilled by a cheap statement.

A loop body that starts by refilling a scratch array from values the loop does not change,

    for (k = 0; k < K; k++) {
        subtract(d, &x[i * d], &mu[k * d], xc);      /* S: xc[t] = x[t] - mu[t] */
        ... statements reading xc ...
    }

would otherwise save every element S overwrites (a push in the forward sweep, a pop in
the backward sweep). Instead, the backward sweep runs S again at the start of each
iteration's backward part, and nothing is saved. This gives the values the backward
statements read when:

- the memory S writes (N) is the function's own (not reachable from its parameters,
  globals or result), and nothing but S writes it; nothing outside S and the statements
  after S in the same iteration reads it: N is scratch of that stretch of the iteration;
- what S reads is not changed by the statements after it in the iteration (elsewhere, the
  backward sweep restores it as it restores everything it reads, see tbr.py);
- S writes the same elements every time: its loop bounds, branch tests and write
  addresses depend only on integers the enclosing loops never change;
- S is cheap: each element it writes costs at most MAX_COST operations (a push and a pop
  of the element cost about that much, and storing also costs the stack memory).

S is a call of a function whose body only refills memory (no calls but math functions,
no local arrays), or a for loop doing the same inline (array syntax in Fortran).

S may also set a local number: `v = e` (a temporary holding a call's argument, an index
computed from the loop counter such as `left = (i + n - 2) % n`), where e is cheap, calls
nothing but math functions, and reads nothing the statements after S change; v is read by
those statements only. The backward sweep sets v again, as
above, instead of saving it before each iteration overwrites it.
"""
from dataclasses import dataclass
from typing import Optional

from adgen import ir
from adgen.analysis.activity import find, reachable_nodes
from adgen.analysis.loops import address_taken, assigned_in, assigned_in_function, \
    assigned_syms, loop_local_vars
from adgen.ir import exprs as X
from adgen.rules import LIBRARY_FUNCTIONS
from adgen.transform.clone import recursive_functions

# A push and a pop of one value cost about as much as this many arithmetic operations.
MAX_COST = 4
# Operations per math call, for the cost model (others count as 20).
CALL_COST = {"fabs": 1, "fmin": 1, "fmax": 1, "copysign": 1, "floor": 1, "ceil": 1,
             "trunc": 1, "round": 1, "sqrt": 6}
_FLOAT_OPS = {"/": 4}


@dataclass
class Recomputation:
    stmt: ir.Stmt           # S, a statement at the top of a loop body
    loop: ir.Stmt           # the loop
    nodes: frozenset        # the memory S refills
    target: str             # what S refills, for --explain
    cost: int               # operations per element written
    scalar: Optional[ir.Symbol] = None  # the local S sets, when S is `v = e`

    def statements(self):
        """The primal statement, to be run again by the backward sweep."""
        from adgen.ir.exprs import clone_stmts
        return [clone_stmts(self.stmt)]

    def why(self):
        ops = f"{self.cost} operation{'s' if self.cost != 1 else ''}"
        if self.scalar is not None:
            return f"set again by line {self.stmt.loc.line} at the start of each backward " \
                   f"iteration, {ops}"
        return f"filled again by line {self.stmt.loc.line} at the start of each backward " \
               f"iteration, {ops} per element"


def find_recomputations(ctx):
    """{id(S): Recomputation} for the program's functions; empty with --store-all."""
    if ctx.options.store_all:
        return {}
    out = {}
    names = {n for n in ctx.functions if ctx.prog.functions[n].has_body}
    recursive = recursive_functions(ctx.prog, names)
    for name in sorted(names - recursive):
        f = ctx.prog.functions[name]
        _Finder(ctx, f, out).walk(f.body.stmts, None, False)
    return out


def _directive_before(stmts, k):
    """True when the statement before stmts[k] is a directive: a loop's (checkpointing, a
    fixed point), whose steps run again in their own way, or a call's mode."""
    from adgen.transform.checkpoint import call_mode_pragma, checkpoint_pragma
    from adgen.transform.fixed_point import fp_loop_pragma
    if k == 0:
        return False
    prev = stmts[k - 1]
    return checkpoint_pragma(prev) is not None or bool(fp_loop_pragma(prev)) or \
        call_mode_pragma(prev) is not None


def _cost(e):
    """Floating-point operations of an expression (address arithmetic is not counted)."""
    total = 0
    for sub in ir.walk(e):
        if isinstance(sub, ir.Call):
            lib = LIBRARY_FUNCTIONS.get(sub.func)
            # sinf, sinl: as sin
            base = sub.func[:-1] if sub.func[-1:] in ("f", "l") and \
                sub.func[:-1] in LIBRARY_FUNCTIONS else sub.func
            total += CALL_COST.get(base, 20) if lib else 1000
        elif isinstance(sub, (ir.Binary, ir.Unary, ir.Cond)) and sub.type is not None and \
                sub.type.resolved().is_float:
            total += _FLOAT_OPS.get(sub.op, 1) if not isinstance(sub, ir.Cond) else 1
    return total


class _Refused(Exception):
    pass


class _Finder:
    def __init__(self, ctx, f, out):
        self.ctx, self.f, self.out = ctx, f, out
        self.mem = ctx.mem
        self.prog = ctx.prog
        self.taken = address_taken(f)
        self.loop_local = loop_local_vars(f)
        self.readonly = ctx.extents.readonly_ints(f)
        roots = [self.mem.var(p) for p in f.params] + \
            [self.mem.var(g) for g in self.prog.globals]
        self.visible = reachable_nodes(roots)
        self.written = None     # the memory f writes (written_memory), once asked
        self.refill_kinds = {}  # id(compound statement) -> may_refill

    # ------------------------------------------------------------------ walk
    def walk(self, stmts, top, in_directive_loop):
        for k, s in enumerate(stmts):
            outer = top if top is not None else s
            if isinstance(s, ir.Block):
                self.walk(s.stmts, top, in_directive_loop)
            elif isinstance(s, ir.If):
                self.walk(s.then.stmts, outer, in_directive_loop)
                if s.other:
                    self.walk(s.other.stmts, outer, in_directive_loop)
            elif isinstance(s, (ir.For, ir.While, ir.DoWhile)):
                special = in_directive_loop or _directive_before(stmts, k)
                if not special:
                    body = s.body.stmts
                    for j in range(len(body)):
                        try:
                            self.candidate(outer, s, body, j)
                        except _Refused:
                            pass
                self.walk(s.body.stmts, outer, special)

    # -------------------------------------------------------------- candidate
    def candidate(self, top, loop, body, j):
        s = body[j]
        later = body[j + 1:]
        if _directive_before(body, j):
            return
        if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref):
            self.scalar_candidate(s, loop, later)
            return
        if isinstance(s, ir.ExprStmt) and isinstance(s.expr, ir.Call):
            writes, reads, scalars, cost = self.call_effects(s.expr, top)
        elif isinstance(s, ir.For):
            writes, reads, scalars, cost = self.inline_effects(s, top)
        else:
            return
        if not writes or cost > MAX_COST:
            return
        nodes = frozenset(writes)
        if nodes & self.visible or isinstance(self.f.ret.resolved(), ir.Ptr):
            return
        # the statements after S leave what S reads and writes alone
        for st in ir.stmts_walk(later):
            r, w = self.accesses(st)
            if w & (nodes | reads):
                return
            if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and \
                    st.lhs.sym in scalars:
                return
        # nothing else touches N
        skip = {id(s)} | {id(st) for st in later}
        for st in ir.stmts_walk(self.f.body.stmts, skip):
            r, w = self.accesses(st)
            if (r | w) & nodes:
                return
        self.out[id(s)] = Recomputation(s, loop, nodes, self.target_text(s, nodes), cost)

    def scalar_candidate(self, s, loop, later):
        """S is `v = e`: recomputed when v is a local number (floating-point or integer)
        that only S and the statements after it in the iteration use, e is cheap, and those
        statements change neither v nor anything e reads."""
        v = s.lhs.sym
        t = v.type.resolved()
        if v not in self.f.locals or v in self.taken or not (t.is_float or t.is_int):
            return
        if not _cheap(s.rhs):
            return
        scalars = {sub.sym for sub in ir.walk(s.rhs) if isinstance(sub, ir.Ref)}
        if v in scalars or scalars & self.taken:
            return
        reads, _ = self.accesses(s)
        if assigned_syms(later) & (scalars | {v}):
            return
        for st in ir.stmts_walk(later):
            if self.accesses(st)[1] & reads:
                return
        if X.stmts_mention(self.f.body.stmts, v, skip={id(s)} | {id(st) for st in later}):
            return
        if not self.restored_anyway(s, t.is_float):
            return
        self.out[id(s)] = Recomputation(s, loop, frozenset(), v.name, _cost(s.rhs), scalar=v)

    def restored_anyway(self, s, has_adjoint):
        """True when what `v = e` reads costs nothing more to have back in the backward
        sweep than v itself: each value e reads that the function changes somewhere (so
        that the backward sweep must restore it for the recomputation) is one the adjoint
        of S reads too, a factor of a product or an operand of a quotient or a math call,
        or a local set again itself. Otherwise recomputing v only stores that value
        instead of v. An integer v (has_adjoint false) has no adjoint to read anything:
        e may then read no such value at all."""
        written = self.written_memory()
        # loop counters are replayed, locals recomputed before S are set again before it
        changed = assigned_in_function(self.f) - self.loop_local - \
            {rc.scalar for rc in self.out.values()}
        needed = set()

        def restored(e):    # a value the backward sweep must restore to read it
            return isinstance(e, ir.Ref) and e.sym in changed or \
                isinstance(e, (ir.Index, ir.Deref, ir.Member)) and \
                find(self.mem.loc(e)) in written

        if not has_adjoint:
            return not any(restored(e) for e in ir.walk(s.rhs))

        def visit(e, kept):
            if restored(e):
                if not kept:
                    needed.add(id(e))
                if isinstance(e, ir.Ref):
                    return
            if isinstance(e, ir.Call):
                kept = True
            for sub in e.children():
                if isinstance(e, ir.Binary) and e.op == "/":
                    visit(sub, True)
                elif isinstance(e, ir.Binary) and e.op == "*":
                    other = e.right if sub is e.left else e.left
                    visit(sub, kept or not _constant(other))
                elif isinstance(e, (ir.Index, ir.Deref, ir.Member)):
                    visit(sub, True)        # indices and addresses: not derivatives
                else:
                    visit(sub, kept)
        visit(s.rhs, False)
        return not needed

    def written_memory(self):
        """The memory f writes (its calls included), worked out once."""
        if self.written is None:
            self.written = set().union(*(self.accesses(st)[1]
                                         for st in ir.stmts_walk(self.f.body.stmts)))
        return self.written

    def target_text(self, s, nodes):
        from adgen.ir.c_text import expr_c
        for st in ir.stmts_walk([s]):
            if isinstance(st, ir.Assign) and not isinstance(st.lhs, ir.Ref):
                base = st.lhs
                while isinstance(base, ir.Index):
                    base = base.base
                return expr_c(base)
        for a in s.expr.args:
            t = a.type.resolved() if a.type is not None else None
            if isinstance(t, ir.Arr):
                node = self.mem.loc(ir.Index(a, ir.Const("0", ir.INT), t.elem))
            elif t is not None and t.is_pointer:
                node = self.mem.target(a)
            else:
                continue
            if find(node) in nodes:
                return expr_c(a)
        return s.expr.func

    # ---------------------------------------------------------- memory access
    def accesses(self, st):
        """(read, written) memory nodes of one statement (its own expressions; through a
        call, everything the callee may read and write)."""
        reads, writes = set(), set()
        top = st.lhs if isinstance(st, ir.Assign) else None
        if top is not None and not isinstance(top, ir.Ref):
            writes.add(find(self.mem.loc(top)))
        elif top is not None and top.sym.kind == "global":
            writes.add(find(self.mem.var(top.sym)))
        for e in ir.stmt_exprs(st):
            addressed = ir.addressed_only(e)    # &x[0]: the same as x, no read
            for sub in ir.walk(e):
                if sub is top or id(sub) in addressed:
                    continue
                if isinstance(sub, (ir.Index, ir.Deref, ir.Member)):
                    reads.add(find(self.mem.loc(sub)))
                elif isinstance(sub, ir.Ref) and sub.sym.kind == "global":
                    reads.add(find(self.mem.var(sub.sym)))
                elif isinstance(sub, ir.Call):
                    r, w = self.call_access(sub)
                    reads |= r
                    writes |= w
        return reads, writes

    def call_access(self, call):
        g = self.prog.functions.get(call.func)
        lib = LIBRARY_FUNCTIONS.get(call.func)
        if g is not None and g.has_body and not getattr(g, "is_library", False):
            reads = self.ctx.reads().get(g.name, ())
            writes = self.ctx.writes().get(g.name, ())
            # the same at each call of g while the graph keeps its shape (each statement
            # of each pass asks)
            key = (self.mem.shape, id(reads), len(reads), id(writes), len(writes))
            known = self.ctx.callee_access.get(g.name)
            if known is None or known[0] != key:
                known = self.ctx.callee_access[g.name] = (
                    key, frozenset(find(n) for n in reads), frozenset(find(n) for n in writes),
                    reads, writes)     # (kept, so that the ids in the key stay theirs)
            return known[1], known[2]
        if lib is not None and lib.kind in ("math", "step", "int", "effect", "alloc",
                                            "helper"):
            return set(), set()
        # a library call handed memory, or a function adgen cannot see: all it is given
        touched = set()
        for a in call.args:
            if a.type is not None and a.type.resolved().is_pointer:
                touched |= reachable_nodes([self.mem.target(a)])
        if g is not None and getattr(g, "user_rule", None) is None and not g.has_body:
            raise _Refused()
        return touched, touched

    # ------------------------------------------------------- the refill itself
    def invariant_syms(self, top):
        """Integer and pointer variables of f that nothing in `top` (the outermost
        statement around the loop) changes, and its arrays (which never move)."""
        changed = assigned_in([top])
        out = set()
        for sym in list(self.f.params) + list(self.f.locals):
            t = sym.type.resolved()
            if sym in changed or sym in self.taken and not isinstance(t, ir.Arr):
                continue
            if t.is_int or t.is_pointer or isinstance(t, ir.Arr):
                out.add(sym)
        return out

    def call_effects(self, call, top):
        g = self.prog.functions.get(call.func)
        if g is None or not g.has_body or getattr(g, "is_library", False) or \
                getattr(g, "user_rule", None) is not None or g is self.f or \
                len(g.params) != len(call.args):
            raise _Refused()
        if any(isinstance(sym.type.resolved(), ir.Arr) for sym in g.locals):
            raise _Refused()
        invariant = self.invariant_syms(top)
        g_readonly = self.ctx.extents.readonly_ints(g)
        clean = set()
        for p, a in zip(g.params, call.args):
            t = p.type.resolved()
            if t.is_int and _clean(a, invariant, self.readonly):
                clean.add(p)
            elif t.is_pointer and _clean_address(a, invariant, self.readonly):
                clean.add(p)
        writes, cost = self.refill(g.body.stmts, clean, set(g.locals), g_readonly)
        # what S reads: the callee's memory, and what its arguments read
        reads = {find(n) for n in self.ctx.reads().get(g.name, ())}
        reads -= {find(self.mem.var(sym)) for sym in list(g.params) + list(g.locals)}
        scalars = set()
        for a in call.args:
            r, _ = self.accesses(ir.ExprStmt(a))
            reads |= r
            scalars |= {sub.sym for sub in ir.walk(a) if isinstance(sub, ir.Ref)}
        if reads & writes or scalars & self.taken:
            raise _Refused()
        return writes, reads, scalars, cost

    def inline_effects(self, loop, top):
        if not self.may_refill(loop):
            raise _Refused()
        invariant = self.invariant_syms(top)
        counters = {st.init[0].lhs.sym for st in ir.stmts_walk([loop])
                    if isinstance(st, ir.For) and len(st.init) == 1 and
                    isinstance(st.init[0], ir.Assign) and isinstance(st.init[0].lhs, ir.Ref)}
        if not counters <= self.loop_local:
            raise _Refused()
        writes, cost = self.refill([loop], invariant, counters, self.readonly)
        reads, scalars = set(), set()
        for st in ir.stmts_walk([loop]):
            r, _ = self.accesses(st)
            reads |= r
            for e in ir.stmt_exprs(st):
                scalars |= {sub.sym for sub in ir.walk(e) if isinstance(sub, ir.Ref)}
        scalars -= counters
        if reads & writes or scalars & self.taken:
            raise _Refused()
        return writes, reads, scalars, cost

    def may_refill(self, s):
        """False when compound statement s holds a statement refill refuses wherever it
        stands (one of another kind, a number or pointer variable set, a call), so that
        each loop of a nest is not read through again; read once per statement."""
        if id(s) not in self.refill_kinds:
            self.refill_kinds[id(s)] = all(
                self.may_refill(x) if isinstance(x, ir.COMPOUND) else _refill_kind(x)
                for x in ir.statements_inside(s))
        return self.refill_kinds[id(s)]

    def refill(self, stmts, clean, own, readonly):
        """(memory written, operations per element) of statements that do nothing but
        write memory under control flow and addresses fixed by `clean` variables; `own`
        are the local variables they may also set (integers only from clean values)."""
        clean = set(clean)
        ints = {sym for sym in own if sym.type.resolved().is_int}
        # the integer locals set only from clean values, to a fixed point
        assigns = [st for st in ir.stmts_walk(stmts)
                   if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref)]
        candidates = set(ints)
        while True:
            ok = clean | candidates
            bad = {st.lhs.sym for st in assigns if st.lhs.sym in candidates and
                   not _clean(st.rhs, ok, readonly)}
            if not bad:
                break
            candidates -= bad
        clean |= candidates
        writes, cost = set(), 0
        for st in ir.stmts_walk(stmts):
            if isinstance(st, (ir.Break, ir.Continue, ir.Block, ir.Comment, ir.Pragma)):
                continue
            if isinstance(st, (ir.If, ir.While, ir.DoWhile)):
                if not _clean(st.test, clean, readonly):
                    raise _Refused()
            elif isinstance(st, ir.For):
                if st.test is not None and not _clean(st.test, clean, readonly):
                    raise _Refused()
            elif isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref):
                if st.lhs.sym not in candidates:
                    raise _Refused()
            elif isinstance(st, ir.Assign):
                if not _clean_address(st.lhs, clean, readonly, element=True) or \
                        not st.lhs.type.resolved().is_float:
                    raise _Refused()
                if any(isinstance(sub, ir.Call) and not _math_call(sub)
                       for sub in ir.walk(st.rhs)):
                    raise _Refused()
                writes.add(find(self.mem.loc(st.lhs)))
                cost = max(cost, _cost(st.rhs))
            else:
                raise _Refused()
        return writes, cost


def _refill_kind(st):
    """Whether refill may accept statement st (not compound), as far as st alone tells."""
    if isinstance(st, (ir.Break, ir.Continue, ir.Comment, ir.Pragma)):
        return True
    if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref):
        return st.lhs.sym.type.resolved().is_int
    if isinstance(st, ir.Assign):
        return st.lhs.type.resolved().is_float and \
            not any(isinstance(sub, ir.Call) and not _math_call(sub) for sub in ir.walk(st.rhs))
    return False


def _cheap(e):
    """An expression worth computing again rather than storing: at most MAX_COST
    operations, calling nothing but math functions."""
    return _cost(e) <= MAX_COST and not any(isinstance(sub, ir.Call) and not _math_call(sub)
                                            for sub in ir.walk(e))


def _constant(e):
    """An expression of constants only (no variable, memory or call)."""
    return all(isinstance(sub, (ir.Const, ir.Unary, ir.Binary, ir.Cast)) for sub in ir.walk(e))


def _math_call(call):
    """A call of a math function of the C library (no effect but its value)."""
    lib = LIBRARY_FUNCTIONS.get(call.func)
    return lib is not None and lib.kind in ("math", "step")


def _clean(e, syms, readonly):
    """An integer expression of the variables `syms` and constants only (no memory)."""
    for sub in ir.walk(e):
        if isinstance(sub, ir.Ref):
            if sub.sym not in syms:
                return False
        elif isinstance(sub, ir.Deref):
            if not (isinstance(sub.ptr, ir.Ref) and sub.ptr.sym in readonly and
                    sub.ptr.sym in syms):
                return False
        elif not isinstance(sub, (ir.Const, ir.Unary, ir.Binary, ir.Cast)):
            return False
    return True


def _clean_address(e, syms, readonly, element=False):
    """An address (or with element, an element) fixed by the variables `syms`:
    p, p + k, &p[k], &v, p[k], p[k][l] with p and v in syms and k, l clean."""
    if element:
        if isinstance(e, ir.Index):
            base = e.base
            if isinstance(base, ir.Index):
                return _clean_address(base, syms, readonly, element=True) and \
                    _clean(e.index, syms, readonly)
            return _clean_address(base, syms, readonly) and _clean(e.index, syms, readonly)
        if isinstance(e, ir.Deref):
            return _clean_address(e.ptr, syms, readonly)
        return False
    while isinstance(e, ir.Cast):
        e = e.arg
    if isinstance(e, ir.Ref):
        return e.sym in syms
    if isinstance(e, ir.Binary) and e.op in "+-":
        return _clean_address(e.left, syms, readonly) and _clean(e.right, syms, readonly)
    if isinstance(e, ir.AddrOf):
        return _clean_address(e.arg, syms, readonly, element=True) or \
            isinstance(e.arg, ir.Ref) and e.arg.sym in syms
    return False


def exit_recomputations(ctx, f, syms, backward_reads):
    """The statements `v = e` after which the backward sweep of f in split mode (a function
    of its own) can set again the locals v of `syms` it reads, instead of receiving their
    final values on the stack: ([statements at the top level of f's body], {id(top-level
    if statement): ([of its then block], [of its else block])}), each in source order. The
    first are set again when the backward sweep starts, the others when it enters the
    backward part of their branch.

    v qualifies when that statement is the only one setting it (its final value), nothing
    reads v before it nor returns before it, and e is cheap (MAX_COST, math calls only) and
    reads only parameters f never changes, locals that qualify themselves (set earlier; in
    a branch, at the top level or earlier in that branch), and memory f never writes whose
    values the backward sweep reads anyway (the caller gives it back to the backward sweep
    as it was when the forward sweep ended). A local set in a branch qualifies only when
    nothing outside that branch uses it. Pointers into the caller's arrays
    (`rot = &cam[0]`) are the common case at the top level, the temporaries of one case
    (`theta = sqrt(theta2)` under `if (theta2 > eps)`) in branches."""
    if ctx.options.store_all:
        return [], {}
    finder = _Finder(ctx, f, {})
    taken = address_taken(f)
    changed = assigned_in_function(f)
    try:
        written = finder.written_memory()
    except _Refused:
        return [], {}       # a call of a function whose memory effects are unknown
    body = f.body.stmts
    setters = {}
    for st in ir.stmts_walk(body):
        if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref):
            setters.setdefault(st.lhs.sym, []).append(st)
    travelling = [u for u in syms if u not in taken and u in f.locals and u in setters]
    named = {}      # id(statement of f) -> the variables it names, nested statements included

    def names_in(stmts):
        return {x.sym for st in ir.stmts_walk(stmts) for e in ir.stmt_exprs(st)
                for x in ir.walk(e) if isinstance(x, ir.Ref)}

    def named_before(stmts, k, v):
        """X.stmts_mention(stmts[:k], v), each statement read once."""
        for st in stmts[:k]:
            if id(st) not in named:
                named[id(st)] = names_in([st])
            if v in named[id(st)]:
                return True
        return False

    def qualifying(stmts, ready, outside, earlier):
        """The statements of stmts (in order) setting locals that qualify, given the
        locals already `ready`; outside: the statements that must not use them; earlier:
        the statements of f that run before stmts. The locals the backward sweep receives
        (syms) hold the values these statements read when every statement setting them
        comes before."""
        out = []
        done = {id(st) for st in ir.stmts_walk(earlier)}   # statements run before s
        named_outside = names_in(outside)
        returned = False    # some statement before s returns
        for k, s in enumerate(stmts):
            if k:
                for st in ir.stmts_walk([stmts[k - 1]]):
                    done.add(id(st))
                    returned = returned or isinstance(st, ir.Return)
            ready = ready | {u for u in travelling if all(id(st) in done for st in setters[u])}
            if not (isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref)):
                continue
            v = s.lhs.sym
            t = v.type.resolved()
            if v not in f.locals or v in taken or setters[v] != [s] or \
                    not (t.is_int or t.is_float or t.is_pointer):
                continue
            if returned or named_before(stmts, k, v) or v in named_outside or not _cheap(s.rhs):
                continue
            ok = all(sub.sym in ready or
                     sub.sym in f.params and sub.sym not in changed and sub.sym not in taken
                     for sub in ir.walk(s.rhs) if isinstance(sub, ir.Ref))
            if ok and not any(node in written or node not in backward_reads
                              for node in _memory_read(finder.mem, s.rhs)):
                out.append(s)
                ready = ready | {v}
        return out

    top = qualifying(body, set(), [], [])
    ready = {s.lhs.sym for s in top}
    branches = {}
    for k, s in enumerate(body):
        if isinstance(s, ir.If):
            rest = body[:k] + body[k + 1:]
            blocks = [s.then.stmts, s.other.stmts if s.other else []]
            branches[id(s)] = tuple(
                qualifying(b, ready, rest + [ir.ExprStmt(s.test)] +
                           [ir.Block(o) for o in blocks if o is not b], body[:k])
                for b in blocks)
    # keep what the backward sweep reads, and what those are computed from
    kept = set(syms)
    for group in reversed([top] + [b for pair in branches.values() for b in pair]):
        for s in reversed(group):
            if s.lhs.sym in kept:
                kept |= {sub.sym for sub in ir.walk(s.rhs) if isinstance(sub, ir.Ref)}
    top = [s for s in top if s.lhs.sym in kept]
    branches = {k: tuple([s for s in b if s.lhs.sym in kept] for b in pair)
                for k, pair in branches.items()}
    return top, {k: pair for k, pair in branches.items() if pair[0] or pair[1]}


def _memory_read(mem, e):
    """The memory nodes whose values e reads (the element an address `&p[i]` names is not
    read)."""
    out = set()

    def visit(x, address):
        if isinstance(x, (ir.Index, ir.Deref, ir.Member)) and not address:
            out.add(find(mem.loc(x)))
        if isinstance(x, ir.AddrOf):
            visit(x.arg, True)
            return
        for sub in x.children():
            # below an address, only indices and the pointers it goes through are read
            visit(sub, address and sub is getattr(x, "base", None) and (
                isinstance(x, ir.Member) and not x.arrow or
                isinstance(x, ir.Index) and sub.type is not None and
                isinstance(sub.type.resolved(), ir.Arr)))
    visit(e, False)
    return out
