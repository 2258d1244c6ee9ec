"""Loops whose iterations are independent: `#pragma adgen independent` (Fortran
`!$AD II-LOOP`) before a counted loop whose iterations write only their own scratch
(locals that nothing outside the loop reads) and add into sums (`s = s + e`).

Reversed as a whole, such a loop stores the values of every iteration until the backward
sweep reaches it. But a sum's adjoint does not change along the loop (each `s = s + e`
only reads it), so the loop's adjoint is that adjoint times the gradient of the
iterations' sum, which does not depend on anything after the loop. The forward sweep
therefore runs, for each iteration, its recording forward sweep and at once its backward
sweep, with the sum's adjoint taken as 1 and the adjoints of what the body only reads
gathered in buffers of their own, one per variable (G). The backward sweep, at the loop,
adds the sum's adjoint times G to those adjoints. The stack holds one iteration's values;
the buffers are as large as the arrays the body reads.

The directive is the user's statement that no value flows from one iteration to the next
through memory (each iteration sets its scratch before reading it); what adgen can check
it checks, and a loop of another shape (an iteration writing an array that outlives the
loop, more than one active sum, a buffer of a size adgen cannot tell) is reversed as any
loop, with a warning saying why.
"""
import re

from adgen import ir
from adgen.analysis.activity import find
from adgen.analysis.first_access import READ, variables_first_access
from adgen.analysis.loops import assigned_syms, canonical_loop
from adgen.errors import AdgenError, warning_text
from adgen.ir import exprs as X
from adgen.ir.openmp import omp_clauses
from adgen.transform.checkpoint import StateKeeper, written_nodes
from adgen.transform.common import alloc_call, source_name, strip_const
from adgen.transform.openmp import (AdjointParallelLoop, ThreadParts, openmp_reached,
                                    openmp_reached_text, parallel_for)

PRAGMA = re.compile(r"\s*adgen\s+independent\s*$")


def independent_pragma(s):
    """True when s is `#pragma adgen independent`."""
    return isinstance(s, ir.Pragma) and PRAGMA.match(s.text) is not None


class NotIndependent(Exception):
    """Why a loop is reversed as any loop in spite of the directive (args: the reason)."""


class IndependentLoop:
    """Forward and backward statements of one loop under `#pragma adgen independent`
    (for FuncGen)."""

    def __init__(self, gen, loop, pragma_loc, parallel=None):
        self.g = gen
        self.loop = loop
        self.loc = pragma_loc
        self.parallel = parallel    # the loop's `#pragma omp parallel for`, if it has one

    def build(self):
        """(forward, backward) statements; None for a parallel loop that does not have
        the shape (see parallel_backward.py for those that write their own elements)."""
        g, s = self.g, self.loop
        if not isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            raise AdgenError("independent: the directive must stand just before a loop",
                             self.loc)
        try:
            if g.T.ctx.options.store_all:
                if self.parallel is None:
                    return g.stmt(s)    # the baseline that stores every value, as written
                raise NotIndependent("--store-all")
            if not isinstance(s, ir.For) or canonical_loop(s, g.f) is None:
                raise NotIndependent("it is not a counted loop (for (i = a; i < b; i += c), "
                                     "bounds it does not change, not left early)")
            if self.parallel is not None:
                self.parallel_shape()
            plan = self.plan()
        except NotIndependent as why:
            if self.parallel is not None:
                return None     # (parallel_backward.py may run its backward loop in parallel)
            prog = g.T.ctx.prog
            prog.warnings = getattr(prog, "warnings", []) + [warning_text(
                self.loc, f"independent: the loop's iterations are reversed together, not "
                f"one at a time: {why.args[0]}")]
            return g.stmt(s)
        return self.generate(*plan)

    def parallel_shape(self):
        """A parallel loop's adjoint runs in parallel only with one stack per thread (the
        heap stack), nothing allocated or freed in the loop (the list of deferred frees is
        one), and the threads numbered as its buffers expect (no num_threads clause, no
        OpenMP inside)."""
        from adgen.rules import ALLOCATION
        g, s = self.g, self.loop
        if g.T.ctx.options.stack != "heap":
            raise NotIndependent("with --stack=static")
        clauses = omp_clauses(parallel_for(self.parallel))
        names = {name for name, _ in clauses} if clauses is not None else {""}
        if names - {"private", "firstprivate", "lastprivate", "shared", "reduction",
                    "schedule", "default", "if", "proc_bind"}:
            raise NotIndependent(f"the clause '{sorted(names)[0] or 'unreadable'}' is not "
                                 "supported in the adjoint yet")
        inner = openmp_reached(g.prog, s.body.stmts)
        if inner is not None:
            raise NotIndependent(openmp_reached_text(inner))
        for st in ir.stmts_walk(s.body.stmts):
            for e in ir.stmt_exprs(st):
                for c in ir.walk(e):
                    if isinstance(c, ir.Call) and (c.func in ALLOCATION or (
                            c.func in g.prog.functions and
                            g.T.ctx.calls(c.func, ALLOCATION))):
                        raise NotIndependent("it allocates or frees memory")

    # ------------------------------------------------------------------ the shape
    def outside(self):
        """The statements of the function that are not in the loop."""
        inside = {id(st) for st in ir.stmts_walk([self.loop])}
        return [st for st in ir.stmts_walk(self.g.f.body.stmts) if id(st) not in inside]

    def plan(self):
        """(sums, active sum or None, [(variable, its shadow, its G type, element count)]
        of what the body only reads, the loop's scratch variables), or NotIndependent."""
        g, s = self.g, self.loop
        var = canonical_loop(s, g.f)[0]
        body = list(s.body.stmts)
        if g.T.zero_on_read:
            raise NotIndependent("an input's adjoint is zeroed as it is read (give the "
                                 "lengths of the arrays with --size)")
        self.no_jumps(body)
        outside = self.outside()
        scalars, nodes = written_nodes(g, body, var)
        written = {a.arg.sym for a, _ in scalars}
        sums = [v for v in written if self.is_sum(v, body, False)]
        private = set()
        for v in sorted(written - set(sums), key=lambda v: v.name):
            self.check_private(v, body, outside)
            private.add(v)
        keeper = StateKeeper(g, lambda message: NotIndependent(message), s)
        # (counters used only in their loops: each loop sets its own first)
        nodes = set(nodes) - {find(g.mem.var(v)) for v in g.loop_local}
        # a number a pointer parameter points to (a Fortran dummy), only added into
        assigned = assigned_syms(g.f.body.stmts)
        for p in g.f.params:
            t = p.type.resolved()
            if isinstance(t, ir.Ptr) and isinstance(t.target.resolved(), ir.Prim) and \
                    p not in assigned and find(g.mem.pointee(g.mem.var(p))) in nodes and \
                    self.is_sum(p, body, True):
                sums.append(p)
                nodes.discard(find(g.mem.pointee(g.mem.var(p))))
        for node in sorted(nodes - keeper.private_nodes(nodes), key=lambda n: n.uid):
            private |= self.private_memory(node, keeper, outside)
        sums.sort(key=lambda v: v.name)
        if self.parallel is not None:
            # (a sum its threads share without a reduction would be a race)
            reduced = {n.strip() for name, arg in omp_clauses(parallel_for(self.parallel))
                       if name == "reduction" for n in arg.partition(":")[2].split(",")}
            for v in sums:
                if v.name not in reduced:
                    raise NotIndependent(f"it adds into '{source_name(v)}', which its "
                                         "reduction clause does not name")
        active = [v for v in sums if g.act.active_value(_cell(v))]
        if len(active) > 1:
            raise NotIndependent("it adds into more than one active sum (" +
                                 ", ".join(f"'{source_name(v)}'" for v in active) + ")")
        reads = self.read_inputs(body, var, set(sums) | private, keeper)
        return sums, (active[0] if active else None), reads, private

    def no_jumps(self, body):
        def visit(stmts, in_loop):
            for st in stmts:
                if isinstance(st, ir.Return) or type(st).__name__ in ("Goto", "Label"):
                    raise NotIndependent("its body leaves it or jumps")
                if isinstance(st, (ir.Break, ir.Continue)) and not in_loop:
                    raise NotIndependent("its body leaves an iteration early "
                                         "(break or continue)")
                inner = in_loop or isinstance(st, (ir.For, ir.While, ir.DoWhile))
                for part in ir.nested_lists(st):
                    visit(part, inner)
        visit(body, False)

    def is_sum(self, v, body, through):
        """True when the body only adds into the number v holds (through: the number the
        pointer v points to): every mention of v is in `c = c + e`, `c = e + c` or
        `c = c - e`, c that number and e free of v."""
        cell = _cell(v) if through else ir.Ref(v)
        t = cell.type.resolved() if cell.type is not None else None
        if not isinstance(t, ir.Prim) or v.kind == "global":
            return False

        def is_cell(e):
            return X.same_text(e, cell)
        for st in ir.stmts_walk(body):
            exprs = ir.stmt_exprs(st)
            if not any(X.mentions(e, v) for e in exprs):
                continue
            if not (isinstance(st, ir.Assign) and is_cell(st.lhs) and
                    isinstance(st.rhs, ir.Binary) and st.rhs.op in "+-"):
                return False
            left, right = st.rhs.left, st.rhs.right
            if is_cell(left) and not X.mentions(right, v):
                continue
            if st.rhs.op == "+" and is_cell(right) and not X.mentions(left, v):
                continue
            return False
        return True

    def check_private(self, v, body, outside):
        """v, a scalar the body sets, must be the body's own: a local that the body sets
        before reading it, and that nothing outside the loop reads."""
        name = source_name(v)
        if v not in self.g.f.locals:
            raise NotIndependent(f"it sets '{name}', which is not a local of "
                                 f"'{source_name(self.g.f)}'")
        if variables_first_access(body, {v}) == READ:
            raise NotIndependent(f"an iteration may read '{name}' before setting it (a value "
                                 "carried from the iteration before)")
        # (a read after the loop of a value set again since reads nothing the loop left)
        rest = _following(self.g.f.body.stmts, self.loop)
        dead = set() if rest is None or variables_first_access(rest, {v}) == READ else \
            {id(st) for st in ir.stmts_walk(rest)}
        if any(_reads_outside(st, v) for st in outside if id(st) not in dead):
            raise NotIndependent(f"'{name}', which the loop sets, is read outside it")

    def private_memory(self, node, keeper, outside):
        """The local arrays and pointers holding node, memory the body writes, when it is
        the function's own scratch: a local array, or a block allocated into local
        pointers, that nothing outside the loop uses but to allocate and free it."""
        g = self.g
        if node in g.mem.held_pointees():
            raise NotIndependent("it writes memory reached through pointers held in memory")
        holders = set(keeper.pointer_holders(node))
        for sym in g.f.locals:
            t = sym.type.resolved()
            if isinstance(t, ir.Arr) and find(g.mem.loc(ir.Index(ir.Ref(sym), _int(0),
                                                                 t.elem))) is node:
                holders.add(sym)
        if not holders:
            raise NotIndependent("it writes memory that is not a local array or a block its "
                                 "function allocates")
        for h in holders:
            name = source_name(h)
            if h not in g.f.locals:
                raise NotIndependent(f"it writes through '{name}', which is not a local of "
                                     f"'{source_name(g.f)}': memory that outlives the loop")
            for st in outside:
                if _mentions(st, h) and not _allocates_or_frees(st, h):
                    raise NotIndependent(f"'{name}', whose memory the loop writes, is used "
                                         "outside it")
        return holders

    def read_inputs(self, body, var, own, keeper):
        """[(variable, its shadow, G type, element count or None for a scalar)] of the
        variables with adjoints that the body names and does not set."""
        g = self.g
        out = []
        shadowed_globals = {sg.primal for sg in g.T.ctx.shadow_globals()}
        reads = g.T.ctx.reads()
        global_nodes = {find(g.mem.var(v)) for v in shadowed_globals}
        for st in ir.stmts_walk(body):
            for e in ir.stmt_exprs(st):
                for c in ir.walk(e):
                    if isinstance(c, ir.Call) and {find(n) for n in
                                                   reads.get(c.func, ())} & global_nodes:
                        raise NotIndependent(f"'{c.func}' reads an active global itself")
        assigned = assigned_syms(g.f.body.stmts)
        for v in sorted(X.used_symbols(body), key=lambda v: v.name):
            if v is var or v in own or v in g.loop_local or not g.sh.has(v):
                continue
            name = source_name(v)
            shadow = g.sh.of_sym(v)
            t = v.type.resolved()
            if isinstance(t, ir.Prim) and t.is_float:
                if not ir.is_lvalue(shadow):
                    raise NotIndependent(f"the adjoint of '{name}' is not a variable")
                out.append((v, shadow, strip_const(shadow.type), None))
                continue
            elem = t.target.resolved() if isinstance(t, ir.Ptr) else \
                t.elem.resolved() if isinstance(t, ir.Arr) else None
            if not (isinstance(elem, ir.Prim) and elem.is_float) or \
                    not isinstance(shadow, ir.Ref):
                raise NotIndependent(f"the body reads '{name}', neither a number nor an "
                                     "array of numbers")
            count = self.element_count(v, keeper, assigned)
            out.append((v, shadow, ir.Ptr(strip_const(ir.pointee(shadow.type))), count))
        return out

    def element_count(self, v, keeper, assigned):
        """The number of elements of the array v (a local array, a pointer parameter the
        function does not move, a local pointer to a block of its own) as an expression;
        NotIndependent when adgen cannot tell. assigned: the variables the function sets."""
        g, name = self.g, source_name(v)
        t = v.type.resolved()
        if isinstance(t, ir.Arr):
            return _elements(ir.SizeOf(v.type), t.elem)
        if v in g.f.params:
            if v in assigned:
                raise NotIndependent(f"the function moves '{name}'")
            from adgen.analysis.extent import Unknown
            try:
                return g.T.ctx.try_extent(g.f, v)
            except Unknown as exc:
                raise NotIndependent(f"adgen cannot tell how many elements '{name}' "
                                     f"has ({exc}); give it with --size {name}=EXPR")
        own_heap = keeper.own_heap(find(g.mem.pointee(g.mem.var(v))))
        if not own_heap or len(own_heap) != 1 or own_heap[0][0].sym is not v:
            raise NotIndependent(f"adgen cannot tell how many elements '{name}' "
                                 "points to")
        return _elements(own_heap[0][1], t.target.resolved())

    # -------------------------------------------------------------- the sweeps
    def generate(self, sums, active, reads, private):
        g, s, loc = self.g, self.loop, self.loop.loc
        var = canonical_loop(s, g.f)[0]
        R = ir.Ref
        parallel = self.parallel is not None
        # (variable, real shadow, G symbol, elements per thread or None for a number,
        # this thread's part of G in a parallel loop)
        gathered = []
        saved_shadows = {}
        for v, shadow, t, count in reads:
            if parallel and count is None:
                t, count, number = ir.Ptr(t), _int(1), True     # one number per thread
            else:
                number = count is None
            buf = g.temp(source_name(v) + "b_gathered", t)
            part = g.temp(source_name(v) + "b_part", t) if parallel else None
            gathered.append((v, shadow, buf, count, number, part))
            saved_shadows[v] = g.sh.by_sym[v]
            at = R(part if parallel else buf)
            g.sh.set(v, ir.Deref(at, ir.pointee(t)) if number and parallel else at)
        unit = None
        if active is not None:
            saved_shadows[active] = g.sh.by_sym[active]
            real_sum = g.sh(_cell(active))
            unit = g.temp(source_name(active) + "b_unit", strip_const(real_sum.type))
            g.sh.set(active, R(unit) if isinstance(_cell(active), ir.Ref) else
                     ir.AddrOf(R(unit), ir.Ptr(unit.type)))
        keep = [(_cell(v), g.temp(source_name(v) + "_kept", strip_const(_cell(v).type)))
                for v in sums]
        g.first_in_iteration |= self.first_settings(s.body.stmts, private)
        g.replayed[id(s)] = var     # (the to-be-recorded analysis: the loop sets var)
        g.replayed_counters.append(var)
        g.checkpoint_depth += 1     # nothing the iterations restore outlives them
        g.loop_depth += 1
        g.independent_depth += 1
        try:
            body_f, body_b = g.stmts(list(s.body.stmts))
            g.backward_in_forward.append(body_b)
        finally:
            g.independent_depth -= 1
            g.loop_depth -= 1
            g.checkpoint_depth -= 1
            g.replayed_counters.pop()
            for v, e in saved_shadows.items():
                g.sh.set(v, e)
        g.explain(s, "iterations", "reversed one at a time" + (", in parallel" if parallel
                                                                else ""),
                  ("#pragma omp parallel for" if parallel else "#pragma adgen independent") +
                  ": each iteration's backward sweep runs right after its forward sweep; "
                  "the stack holds one iteration")
        g.independent[id(s)] = [(buf, count) for _, _, buf, count, number, _ in gathered
                                if not number or parallel]
        # a sum's value before the loop, where a backward statement before it reads it
        pushed_sums = [_cell(v) for v in sums
                       if any(isinstance(st, ir.Push) and X.same_text(st.value, _cell(v))
                              for st in ir.stmts_walk(body_f))]
        fwd = [ir.Comment(f"the loop of line {loc.line}: each iteration's backward sweep "
                          "right after its forward sweep, the adjoints of what it reads "
                          "gathered for a unit adjoint of its sum" +
                          (" (each thread its own, added up after the loop)"
                           if parallel else ""))]
        fwd += [ir.Push(X.clone(c), loc) for c in pushed_sums]
        parts = ThreadParts(g, loc) if parallel else None
        if parallel:
            fwd.append(parts.counted())
        for _, _, buf, count, number, _ in gathered:
            if number and not parallel:
                fwd.append(ir.Assign(R(buf), ir.Const("0.0", buf.type), loc))
            elif parallel:
                fwd.append(parts.allocated(buf, count))
            else:
                fwd.append(ir.Raw("scratch_alloc", {"target": R(buf), "type": buf.type,
                                                    "count": X.clone(count)}, loc))
        iteration = [parts.this_thread(part, buf, count)
                     for _, _, buf, count, _, part in gathered if parallel]
        iteration += list(body_f)
        if unit is not None:
            iteration.append(ir.Assign(R(unit), ir.Const("1.0", unit.type), loc))
        iteration += [ir.Assign(R(k), X.clone(c), loc) for c, k in keep]
        iteration += body_b
        # the sums keep what the iteration added (its backward sweep restored them)
        iteration += [ir.Assign(X.clone(c), R(k), loc) for c, k in keep]
        loop = ir.For(s.init, s.test, s.step, ir.Block(iteration), loc)
        if parallel:
            fwd.append(ir.Raw("pragma", {"text": AdjointParallelLoop(
                g, self.parallel, s).text(loop)}, loc))
        fwd.append(loop)
        if parallel:
            fwd += parts.added_up([(buf, count) for _, _, buf, count, _, _ in gathered])
        fwd += [ir.Push(R(buf), loc) for _, _, buf, _, _, _ in gathered]
        bwd = [ir.Comment(f"the loop of line {loc.line}: the gathered adjoints times the "
                          "adjoint of its sum")]
        bwd += [ir.Pop(R(buf), loc) for _, _, buf, _, _, _ in reversed(gathered)]
        for v, shadow, buf, count, number, _ in gathered:
            if unit is not None:
                bwd += self.scaled(shadow, buf, None if number else count, real_sum,
                                   number and parallel)
        for _, _, buf, count, number, _ in reversed(gathered):
            if not number or parallel:
                bwd.append(ir.Raw("scratch_free", {"ptr": R(buf)}, loc))
        bwd += [ir.Pop(X.clone(c), loc) for c in reversed(pushed_sums)]
        if g.keeps_counter(s, var):
            fwd.insert(1, ir.Push(R(var), loc))     # (after the comment)
            bwd.append(ir.Pop(R(var), loc))
        return fwd, bwd

    @staticmethod
    def first_settings(body, private):
        """{(id(statement), v)}: the statement of the body, at its top level, that sets
        the scratch scalar v before anything in the iteration names it. The value it
        overwrites is the iteration before's: the backward sweep of this iteration reads
        it nowhere (nothing before the statement names v), nor does anything after the
        loop or before it (v is the loop's scratch), so it need not be saved."""
        out, named = set(), set()
        for st in body:
            if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and \
                    st.lhs.sym in private and st.lhs.sym not in named and \
                    not X.mentions(st.rhs, st.lhs.sym):
                out.add((id(st), st.lhs.sym))
            named |= X.used_symbols([st])
        return out

    def scaled(self, shadow, buf, count, factor, first=False):
        """shadow += factor * buf, element by element for an array (a number: buf, or
        with first, buf[0]); without a factor, shadow += buf."""
        loc = self.loop.loc
        if count is None:
            value = ir.Index(ir.Ref(buf), _int(0), ir.pointee(buf.type)) if first \
                else ir.Ref(buf)
            return [ir.Assign(X.clone(shadow), X.add(X.clone(shadow), value if factor is None
                                                     else ir.Binary("*", X.clone(factor), value,
                                                                    shadow.type)), loc)]
        k = self.g.temp("k", ir.SIZE_T)
        elem = ir.pointee(buf.type)
        at = ir.Index(X.clone(shadow), ir.Ref(k), elem)
        value = ir.Index(ir.Ref(buf), ir.Ref(k), elem)
        add = ir.Assign(at, X.add(X.clone(at), value if factor is None else ir.Binary(
            "*", X.clone(factor), value, elem)), loc)
        return [ir.For([ir.Assign(ir.Ref(k), _int(0))],
                       ir.Binary("<", ir.Ref(k), ir.Cast(ir.SIZE_T, X.clone(count)), ir.INT),
                       [ir.Assign(ir.Ref(k), X.add(ir.Ref(k), _int(1)))],
                       ir.Block([add]), loc)]


def _cell(v):
    """The number a sum adds into: the variable v, or what the pointer parameter v points
    to."""
    t = v.type.resolved()
    if isinstance(t, ir.Ptr):
        return ir.Deref(ir.Ref(v), t.target)
    return ir.Ref(v)


def _elements(nbytes, elem):
    """The number of elements of type elem in nbytes bytes, as an expression: `n` of
    `n * sizeof(double)`, the length of a local array."""
    from adgen.ir.c_text import type_name
    e = nbytes
    while isinstance(e, ir.Cast):
        e = e.arg
    if isinstance(e, ir.SizeOf) and isinstance(e.of, ir.Type) and \
            isinstance(e.of.resolved(), ir.Arr) and e.of.resolved().size is not None and \
            type_name(e.of.resolved().elem) == type_name(elem):
        return X.clone(e.of.resolved().size)
    if isinstance(e, ir.Binary) and e.op == "*" and isinstance(e.right, ir.SizeOf) and \
            isinstance(e.right.of, ir.Type) and type_name(e.right.of) == type_name(elem):
        return X.clone(e.left)
    return ir.Binary("/", X.clone(nbytes), ir.SizeOf(elem), ir.SIZE_T)


def _int(v):
    return ir.Const(str(v), ir.INT)


def _mentions(st, sym):
    return any(X.mentions(e, sym) for e in ir.stmt_exprs(st))


def _following(stmts, target):
    """The statements that run after the statement target, in order, when no loop of
    stmts encloses it (None when one does, or target is not in stmts)."""
    for k, st in enumerate(stmts):
        if st is target:
            return list(stmts[k + 1:])
        if isinstance(st, (ir.For, ir.While, ir.DoWhile)):
            continue
        for inner in ir.nested_lists(st):
            rest = _following(inner, target)
            if rest is not None:
                return rest + list(stmts[k + 1:])
    return None


def _reads_outside(st, sym):
    """True when statement st (not a nested one) reads sym: `sym = e` with e free of sym
    only sets it."""
    if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and st.lhs.sym is sym:
        return X.mentions(st.rhs, sym)
    return _mentions(st, sym)


def _allocates_or_frees(st, sym):
    """True when st is `sym = malloc(...)` (calloc, a null pointer) or `free(sym)`."""
    if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and st.lhs.sym is sym:
        return (alloc_call(st.rhs) is not None or X.is_null(st.rhs)) and \
            not X.mentions(st.rhs, sym)
    if isinstance(st, ir.ExprStmt):
        e = st.expr
        return isinstance(e, ir.Call) and e.func == "free" and len(e.args) == 1 and \
            isinstance(_uncast(e.args[0]), ir.Ref)
    return False


def _uncast(e):
    while isinstance(e, ir.Cast):
        e = e.arg
    return e
