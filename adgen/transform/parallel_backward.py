"""The adjoint of a parallel loop whose iterations write their own elements: its backward
loop runs in parallel too.

The most common OpenMP loop writes one element of a shared array per iteration from
shared inputs (`unew[i] = 0.5 * (u[i - 1] + u[i + 1]) + c * f[i]`). Its iterations are
independent when every array the loop writes is accessed, in the whole body, at one index
`a * i + b` of the loop's counter (a a nonzero constant, b the same in every iteration),
and every scalar it sets is its own (set before it is read, read nowhere after the loop)
or a sum of its `reduction` clause, or is updated only by exclusive sums (`#pragma omp
atomic` over `x += e`, which commute). What the forward sweep stores for the backward one
is kept in slots of each iteration's instead of on the stack (kept_per_iteration), so that
the forward iterations stay independent; the backward iterations are independent too, once
what they write is sorted out:

- adjoints of elements accessed at the iteration's own index: each iteration its own;
- scalars the backward iteration sets (the adjoints of the loop's own scalars among them,
  at zero between iterations as in the function): private, each thread's copies starting
  with the function's values;
- adjoints that every iteration adds into (a coefficient `c`, the neighbours `u[i - 1]`,
  `x[j]`): into per-thread parts (openmp.ThreadParts), added up in the order of the
  threads after the loop and then into the adjoints, so that with a static schedule every
  run with the same number of threads gives the same gradient.

The backward loop then runs under `#pragma omp parallel for schedule(static)`. Where
adgen cannot show this (values stored in an inner loop, other accesses, a call of the
program's), the loop's adjoint runs serially, with a warning that says why. (Where the
parts have no room, the adjoints are added atomically or in a reduction: assembled.) The forward sweep of the loop, the primal loop (its values kept in
their slots), keeps the program's pragma.
"""
import dataclasses
import re

from adgen import ir
from adgen.analysis.activity import find
from adgen.analysis.extent import normal_test
from adgen.analysis.first_access import READ, variables_first_access
from adgen.analysis.loops import assigned_syms, canonical_loop
from adgen.errors import warning_text
from adgen.ir import exprs as X
from adgen.ir.c_text import expr_c as expr_text
from adgen.ir.openmp import omp_clauses
from adgen.rules import LIBRARY_FUNCTIONS
from adgen.transform.checkpoint import StateKeeper
from adgen.transform.common import increment, source_name, strip_const
from adgen.transform.independent_loop import IndependentLoop, NotIndependent
from adgen.transform.openmp import (AdjointParallelLoop, ThreadParts, Unsupported, is_openmp,
                                    parallel_for, written)
from adgen.transform.split_sums import UNKNOWN

# the clauses of the primal's pragma that leave its iterations as they are (the backward
# loop has clauses of its own: a static schedule, the same team as adgen_threads counts)
_CLAUSES = ("private", "firstprivate", "lastprivate", "shared", "reduction", "schedule",
            "default", "if", "proc_bind", "num_threads")
# library functions a loop may call: pure functions of their arguments
_PURE = ("math", "step", "int", "helper")
# `#pragma adgen stack_size(BYTES)`, the static stack's size given in the source
_STACK_SIZE = re.compile(r"\s*adgen\s+stack_size\b")
# the statements a loop body may be made of
_STATEMENTS = (ir.Assign, ir.Comment, ir.For, ir.If, ir.Block)


class NotParallel(Exception):
    """Why a parallel loop's adjoint runs serially (args: the reason)."""


class ParallelBackwardLoop:
    """Forward and backward statements of a `#pragma omp parallel for` loop whose
    iterations write their own elements (for FuncGen)."""

    def __init__(self, gen, loop, pragma):
        self.g = gen
        self.loop = loop
        self.pragma = pragma
        self.sums = set()       # the loop's sums (its reduction clause's)
        self.arrays = set()     # the local arrays each iteration has for itself
        self.ranges = {}        # the counters of inner loops -> (lowest, bound, c): < bound + c
        self.scopes = {}        # those counters -> ids of the statements in their loops
        self.own_groups = set()     # memory the iterations write at their own indices

    def build(self):
        g, s = self.g, self.loop
        try:
            var = self.primal_shape()
        except NotParallel as why:
            self.warn(why.args[0])
            return g.stmt(s)
        fwd, bwd = g.stmt(s)
        undo = []       # what puts the sweeps back as they were, when they stay serial
        try:
            fwd_p, bwd_p = self.parallel(fwd, bwd, var, undo)
        except NotParallel as why:
            for put_back in reversed(undo):
                put_back()
            self.warn(why.args[0])
            return fwd, bwd
        if undo:
            g.explain(s, "values stored", "in slots of each iteration's", "its forward and "
                      "backward iterations run in parallel: each keeps its own")
        return self.parallel_forward(fwd_p), bwd_p

    def parallel_forward(self, fwd):
        """fwd with the loop under the program's pragma, when it is the primal loop (it
        stores only into slots of each iteration's, and counts nothing: its iterations
        are as independent as the program's), the variables its iterations set
        firstprivate."""
        g, s = self.g, self.loop
        at = next((k for k, st in enumerate(fwd) if isinstance(st, ir.For) and
                   st.test is s.test and st.init), None)
        if at is None or any(not isinstance(st, _STATEMENTS) or isinstance(st, ir.Assign) and
                             getattr(ir.root_symbol(st.lhs), "is_ad", False) and
                             not getattr(ir.root_symbol(st.lhs), "per_iteration", False)
                             for st in ir.stmts_walk([fwd[at]])):
            return fwd
        try:
            text = AdjointParallelLoop(g, self.pragma, s).text(fwd[at])
        except Unsupported:
            return fwd
        return fwd[:at] + [ir.Raw("pragma", {"text": text}, s.loc)] + fwd[at:]

    def warn(self, why):
        """The warning of this pass over the program (the last one's is said)."""
        self.g.T.loop_warnings[id(self.loop)] = warning_text(
            self.pragma.loc, f"'{written(self.pragma)}' is not supported here yet: the "
            f"adjoint runs this loop serially: {why}")

    # ------------------------------------------------------------ the primal loop
    def primal_shape(self):
        """The loop's counter, when the primal's iterations are independent (see the
        module's docstring); else NotParallel."""
        g, s = self.g, self.loop
        clauses = omp_clauses(parallel_for(self.pragma))
        if clauses is None:
            raise NotParallel(f"cannot read the clauses '{parallel_for(self.pragma).strip()}'")
        sums = set()     # the names of the sums of its reduction clause
        listed = set()   # the names of its private variables
        for name, arg in clauses:
            if name in ("private", "firstprivate"):
                listed |= {n.strip() for n in arg.split(",")}
            if name not in _CLAUSES:
                raise NotParallel(f"the clause '{name}' is not supported in the adjoint yet")
            if name == "reduction":
                op, _, names = arg.partition(":")
                if op.strip() not in ("+", "-"):
                    raise NotParallel(f"reduction({arg}): only sums (+) are supported yet")
                sums |= {n.strip() for n in names.split(",")}
        canon = canonical_loop(s, g.f) if isinstance(s, ir.For) else None
        if canon is None:
            raise NotParallel("it is not a counted loop (for (i = a; i < b; i += c), bounds "
                              "it does not change, not left early)")
        var = canon[0]
        body = s.body.stmts
        if g.T.zero_on_read:
            raise NotParallel("an input's adjoint is zeroed as it is read (give the lengths "
                              "of the arrays with --size)")
        independent = IndependentLoop(g, s, self.pragma.loc)
        outside = independent.outside()
        try:
            independent.no_jumps(body)
        except NotIndependent as why:
            raise NotParallel(why.args[0])
        for st in ir.stmts_walk(body):
            if is_openmp(st):
                raise NotParallel(f"'#pragma {st.text.strip()}' inside it")
            if not isinstance(st, _STATEMENTS):
                raise NotParallel(f"line {st.loc.line}: only assignments, ifs and for loops "
                                  "are supported in it yet" if st.loc else
                                  "only assignments, ifs and for loops are supported in it yet")
            self.pure_calls(st)
        changed = assigned_syms(body) | {var}
        self.ranges = inner_ranges(body, g.f)
        self.scopes = {j: ids for j, ids in primal_scopes(body, g.f).items()
                       if j in self.ranges}
        groups = {}
        updated, named = set(), set()   # scalars updated exclusively; those named otherwise
        for st, lv, write in accesses(body):
            if _is_scalar(lv) and _exclusive(st, lv):
                updated.add(lv.sym)     # (the iterations' updates commute)
                continue
            if _is_scalar(lv):
                named.add(lv.sym)
            if _is_scalar(lv):
                sym = lv.sym
                if sym.name in sums:
                    self.sums.add(sym)
                if not write or sym is var or sym in g.loop_local or sym.name in sums:
                    continue
                if sym.name in listed and sym in g.f.locals and not g.sh.has(sym):
                    # (the pragma makes it private, and no adjoint of it can reach the
                    # loop from what follows: what is outside the loop is not its)
                    if variables_first_access(body, {sym}) == READ:
                        raise NotParallel(f"an iteration may read '{source_name(sym)}' "
                                          "before setting it")
                    continue
                try:
                    independent.check_private(sym, body, self.after(outside))
                except NotIndependent as why:
                    raise NotParallel(why.args[0])
                continue
            groups.setdefault(find(g.mem.loc(lv)), []).append((st, lv, write))
        both = updated & named
        if both:
            raise NotParallel(f"it reads '{source_name(both.pop())}' beside its exclusive "
                              "updates")
        mark = getattr(s, "source_scope", None)
        for key, items in groups.items():
            if not any(write for _, _, write in items):
                continue
            if own_index(items, var, changed, self.ranges, self.scopes) is not None:
                self.own_groups.add(key)
                continue
            if all(_exclusive(st, lv) for st, lv, _ in items):
                continue
            # a local array of each iteration's own: the pragma makes it private or the
            # source declares it in the loop, and nothing outside the loop uses it
            arrays = {ir.storage_symbol(lv) for _, lv, _ in items}
            array = arrays.pop() if len(arrays) == 1 else None
            if array is None or array not in g.f.locals or \
                    not array.type.resolved().is_array or \
                    array.name not in listed and (
                        mark is None or mark not in getattr(array, "loop_scopes", ())):
                raise NotParallel(self.crossing(items, "writes"))
            if any(X.mentions(e, array) for st in outside for e in ir.stmt_exprs(st)):
                raise NotParallel(f"'{array.name}', an array of each iteration's own, is "
                                  "used outside the loop")
            self.arrays.add(array)
        return var

    def after(self, outside):
        """The statements of outside that may run after the loop: all but those before it
        that no loop around it runs again. (What those read of the loop's own scalars is
        the value from before it: the forward loop's private copies leave it, and where
        the adjoint stores it, kept_per_iteration keeps it apart.)"""
        g = self.g
        outer = _outermost_loop(g.f.body.stmts, self.loop) or self.loop
        order = {id(st): k for k, st in enumerate(ir.stmts_walk(g.f.body.stmts))}
        inside = {id(st) for st in ir.stmts_walk([outer])}
        return [st for st in outside
                if id(st) in inside or order.get(id(st), 0) > order[id(outer)]]

    def pure_calls(self, st):
        for e in ir.stmt_exprs(st):
            for c in ir.walk(e):
                if isinstance(c, ir.Call):
                    lib = LIBRARY_FUNCTIONS.get(c.func)
                    if lib is None or lib.kind not in _PURE:
                        raise NotParallel(f"it calls '{source_name_of(self.g, c.func)}' "
                                          "(only calls of math functions are supported "
                                          "yet)")

    @staticmethod
    def crossing(items, what):
        written_at = next(lv for _, lv, write in items if write)
        others = sorted({expr_text(lv) for _, lv, _ in items} - {expr_text(written_at)})
        return f"it {what} '{expr_text(written_at)}'" + (
            f" and also accesses '{others[0]}'" if others else "") + \
            ": an iteration may reach another's elements"

    # ------------------------------------------------------------ the backward loop
    def parallel(self, fwd, bwd, var, undo):
        """(fwd, bwd) with the loop's backward loop run in parallel; NotParallel when it
        cannot (undo: see kept_per_iteration)."""
        g, s = self.g, self.loop
        back = next((loop for source, loop in g.backward_loops if source is s), None)
        if back is None or not any(st is back for st in bwd):
            raise NotParallel("its backward sweep is not a loop over its iterations")
        fwd, bwd = self.kept_per_iteration(fwd, bwd, back, undo)
        loops = [st for st in fwd if isinstance(st, (ir.For, ir.While, ir.DoWhile))]
        for loop in loops:
            for inner in ir.stmts_walk(loop.body.stmts):
                if isinstance(inner, ir.Push):
                    raise NotParallel(f"its forward sweep stores '{expr_text(inner.value)}' "
                                      "for the backward sweep")
        body = back.body.stmts
        counter = back.init[0].lhs.sym
        for st in ir.stmts_walk(body):
            if isinstance(st, ir.Pop):
                raise NotParallel(f"its backward sweep restores '{expr_text(st.target)}'")
            if not isinstance(st, _STATEMENTS):
                raise NotParallel("its backward sweep has statements other than assignments, "
                                  "ifs and for loops")
            self.pure_calls(st)
        changed = assigned_syms(body) | {var, counter}
        scopes = replay_scopes(body, self.ranges)
        own_scalars = assigned_syms(s.body.stmts) - self.sums
        private, groups = set(), {}
        for st, lv, write in accesses(body):
            if getattr(ir.root_symbol(lv), "per_iteration", False):
                continue        # (each iteration's own slot, only read)
            key = g.adjoint_storage(lv)
            if key is UNKNOWN:
                raise NotParallel(f"adgen cannot tell which memory '{expr_text(lv)}' is")
            if _is_scalar(lv) and key[0] != "adjoint" or \
                    _is_scalar(lv) and getattr(lv.sym, "primal", None) in own_scalars:
                if write:
                    private.add(lv.sym)
                continue
            array = ir.storage_symbol(lv)
            if array is not None and getattr(array, "primal", array) in self.arrays:
                private.add(array)      # (an adjoint at zero between iterations)
                continue
            groups.setdefault(key, []).append((st, lv, write))
        for sym in sorted(private, key=lambda v: v.name):
            if sym.kind == "global":
                raise NotParallel(f"its backward sweep sets the global '{source_name(sym)}'")
            if getattr(sym, "primal", None) not in own_scalars and \
                    not sym.type.resolved().is_array and \
                    variables_first_access(body, {sym}) == READ:
                raise NotParallel(f"a backward iteration may read '{sym.name}' before "
                                  "setting it (a value carried from the iteration before)")
        shared = []     # the adjoints every iteration adds into, as the loop names them
        for key, items in groups.items():
            if not any(write for _, _, write in items):
                continue
            if own_index(items, var, changed, self.ranges, scopes) is not None:
                continue
            shared.append((self.added_into(key, items), items))
        return fwd, self.assembled(bwd, back, shared, private, counter)

    def kept_per_iteration(self, fwd, bwd, back, undo):
        """(fwd, bwd) with the values each forward iteration stores for its backward
        iteration kept in slots of their own, one per iteration, instead of on the stack,
        so that iterations store and restore in any order, on any thread. A value pushed
        before an overwrite and popped after the backward statements that read the new
        one (`q_kept[p] = q;` ... `q = q_kept[iter];`) goes to a slot as it is, when it is
        the iteration's own: an element at the iteration's own index, a flag of a branch,
        a scalar of the iteration's own overwritten again in it. The first overwrite of
        such a scalar in an iteration pushes the value the iteration before left, which
        the serial backward loop's next iteration reads: instead, each forward iteration
        keeps its scalar's last value (`q_last[p] = q;` at its end) and each backward
        iteration starts from it, and the value from before the loop is pushed before it
        and popped after the backward loop. The slots are allocated before the forward
        loop, for its trip count, their pointers pushed after it (an outer loop's forward
        sweep runs it again before this backward loop), and freed after the backward loop.

        A value pushed in a branch has its slot written and read under the same branch.
        Applies when every value is pushed and popped by the sweeps of one statement of
        the loop, not in an inner loop (pushes_and_pops); else the stack is left as it is
        (and the loop runs serially). undo gets what puts everything back, should the loop
        still run serially."""
        g, s = self.g, self.loop
        floop = next((st for st in fwd if isinstance(st, ir.For) and st.test is s.test and
                      st.init), None)
        looped = next((b for b in g.block_loops if b.fwd is floop and b.bwd is back), None)
        if floop is None or looped is None or not back.body.stmts or \
                not isinstance(back.body.stmts[0], ir.Assign):
            return fwd, bwd
        pairs = self.pushes_and_pops(floop, back)
        if not pairs:
            return fwd, bwd
        own_scalars = assigned_syms(s.body.stmts) - self.sums - {looped.var}
        firsts = _first_overwrites(floop.body.stmts)
        for push, pop in pairs:
            value = push.value
            if pop.keep or ir.is_lvalue(value) and not X.same_text(value, pop.target):
                return fwd, bwd
            if not ir.is_lvalue(value):
                continue                    # (a branch's flag, set and read in the iteration)
            t = value.type.resolved()
            if t.is_array or t.is_struct:
                return fwd, bwd
            if isinstance(value, ir.Ref):
                if value.sym not in own_scalars:
                    return fwd, bwd
            elif find(g.mem.loc(value)) not in self.own_groups:
                return fwd, bwd
        # (every check made: the variables declared from here on are all used)
        kept_lists = [floop.body.stmts, back.body.stmts] + list(g.fwd_of.values()) + \
            list(g.bwd_of.values())
        nested = [inner for lst in kept_lists for st in ir.stmts_walk(lst)
                  for inner in ir.nested_lists(st)]
        snapshots = [(lst, lst[:]) for lst in kept_lists + nested]
        declared = len(g.ad_locals)

        def put_back():
            for lst, items in snapshots:
                lst[:] = items
            del g.ad_locals[declared:]
        undo.append(put_back)
        loc, R = s.loc, ir.Ref
        iteration = R(back.init[0].lhs.sym)
        count = g.temp("kept_count", ir.INT)
        slot = X.sub(R(looped.var), X.clone(looped.start))
        if X.int_value(looped.stride) != 1:
            slot = ir.Binary("/", slot, X.clone(looped.stride), ir.INT)
        before, after, popped, freed = [ir.Assign(R(count), X.clone(looped.count), loc)], \
            [], [], []
        first_loads, last_stores, kept_before, restored_after = [], [], [], []
        replaced = {}   # id(push or pop) -> its slot's assignment, or None (removed)

        def slots(name, t):
            buf = g.temp(name, ir.Ptr(strip_const(t)))
            buf.per_iteration = True
            before.append(ir.Raw("scratch_alloc", {"target": R(buf), "type": buf.type,
                                                   "count": R(count), "kept": looped.count},
                                 loc))
            after.append(ir.Push(R(buf), loc))
            popped.insert(0, ir.Pop(R(buf), loc))
            freed.insert(0, ir.Raw("scratch_free", {"ptr": R(buf)}, loc))
            return buf, strip_const(t)

        lasts = []      # the scalars whose first overwrite's push and pop go
        buffers = {}    # id(pop) -> (its slots, their element type)
        for push, pop in pairs:
            value = push.value
            t = value.type if ir.is_lvalue(value) else ir.INT
            root = ir.root_symbol(value) if ir.is_lvalue(value) else None
            name = source_name(getattr(root, "primal", root)) if root is not None else "branch"
            if isinstance(value, ir.Ref) and firsts.get(value.sym) is push:
                lasts.append(value.sym)
                kept_before.append(ir.Push(R(value.sym), loc))
                restored_after.insert(0, ir.Pop(R(value.sym), loc))
                replaced[id(push)] = replaced[id(pop)] = None
                continue
            if id(pop) not in buffers:      # (a branch's flag: one pop for each branch's push)
                buffers[id(pop)] = slots(name + "_kept", t)
                replaced[id(pop)] = ir.Assign(X.clone(pop.target), ir.Index(
                    R(buffers[id(pop)][0]), X.clone(iteration), buffers[id(pop)][1]), pop.loc)
            buf, elem = buffers[id(pop)]
            replaced[id(push)] = ir.Assign(ir.Index(R(buf), X.clone(slot), elem),
                                           X.clone(value), push.loc)
        # (in every list that holds them: the counts of --stack-report walk the sweeps of
        # each statement)
        for lst in kept_lists:
            if any(id(st) in replaced for st in lst):
                lst[:] = [replaced.get(id(st), st) for st in lst
                          if replaced.get(id(st), st) is not None]
            _replace(lst, replaced)
        for v in lasts:
            # (a backward iteration that sets v before it reads it needs no last value)
            if variables_first_access(back.body.stmts[1:], {v}) != READ:
                continue
            buf, elem = slots(source_name(getattr(v, "primal", v)) + "_last", v.type)
            last_stores.append(ir.Assign(ir.Index(R(buf), X.clone(slot), elem), R(v), loc))
            first_loads.append(ir.Assign(R(v), ir.Index(R(buf), X.clone(iteration), elem),
                                         loc))
        floop.body.stmts += last_stores
        back.body.stmts[1:1] = first_loads
        at = next(k for k, st in enumerate(fwd) if st is floop)
        fwd = fwd[:at] + kept_before + before + [floop] + after + fwd[at + 1:]
        at = next(k for k, st in enumerate(bwd) if st is back)
        bwd = bwd[:at] + popped + [back] + freed + restored_after + bwd[at + 1:]
        return fwd, bwd

    def pushes_and_pops(self, floop, back):
        """[(push, pop)] of the values the forward loop stores for the backward loop, each
        push with the pop that takes its value back: those of each primal statement of the
        loop, in its own sweeps, the last pushed first popped; None when some push or pop
        is no statement's own, or stands in an inner loop (its values one per inner
        iteration), or there are none."""
        g = self.g
        pushes = [st for st in ir.stmts_walk(floop.body.stmts) if isinstance(st, ir.Push)]
        pops = [st for st in ir.stmts_walk(back.body.stmts) if isinstance(st, ir.Pop)]
        if not pushes:
            return None
        for loop in (floop, back):
            for st in ir.stmts_walk(loop.body.stmts):
                if isinstance(st, (ir.For, ir.While, ir.DoWhile)) and any(
                        isinstance(x, (ir.Push, ir.Pop)) for x in ir.stmts_walk(st.body.stmts)):
                    return None
        pairs = []
        for primal in ir.stmts_walk(self.loop.body.stmts):
            own = _own(g.fwd_of, primal, ir.Push)
            taken = _own(g.bwd_of, primal, ir.Pop)
            if len(own) == len(taken):
                pairs += zip(own, reversed(taken))
            elif isinstance(primal, ir.If) and len(taken) == 1 and \
                    not any(ir.is_lvalue(push.value) for push in own):
                pairs += [(push, taken[0]) for push in own]   # (each branch pushes its flag)
            else:
                return None
        if {id(push) for push, _ in pairs} != {id(push) for push in pushes} or \
                {id(pop) for _, pop in pairs} != {id(pop) for pop in pops} or \
                len(pairs) != len(pushes):
            return None
        return pairs

    def added_into(self, key, items):
        """The adjoint the items (all the accesses of one memory) only add into, as the
        loop names it (`*cb`, `cb`, or `ub` of `ub[i - 1]`); else NotParallel."""
        roots = {ir.root_symbol(lv) for _, lv, _ in items}
        first = items[0][1]
        if key[0] != "adjoint" or len(roots) != 1 or None in roots:
            raise NotParallel(self.crossing(items, "adds into"))
        for st, lv, _ in items:
            # `a = a + e` (the access: a, read or written), e free of that memory
            step = increment(st.lhs, st.rhs) if isinstance(st, ir.Assign) and \
                X.same_text(st.lhs, lv) else None
            if step is None or any(self.g.adjoint_storage(x) == key
                                   for x in _lvalues(step[1])):
                raise NotParallel(self.crossing(items, "writes"))
        root = roots.pop()
        if isinstance(first, ir.Index):
            if not all(isinstance(lv, ir.Index) and isinstance(lv.base, ir.Ref)
                       for _, lv, _ in items):
                raise NotParallel(self.crossing(items, "adds into"))
            return ir.Ref(root)
        if all(X.same_text(lv, first) for _, lv, _ in items) and (
                isinstance(first, ir.Ref) or isinstance(first, ir.Deref) and
                isinstance(first.ptr, ir.Ref)):
            return first
        raise NotParallel(self.crossing(items, "adds into"))

    def assembled(self, bwd, back, shared, private, counter):
        """bwd with the backward loop under its pragma, the adjoints in shared (each with
        the accesses of its memory) added into per-thread parts, added up after it: the
        same sums at every run with the same number of threads. Where such parts cannot
        be had (an array whose length adgen cannot tell; on the static stack whose size
        is not given, where their room depends on the number of threads), an array's
        adjoint is added into atomically and a number's in a reduction of the pragma:
        the gradient then equals the serial one to rounding, not bit for bit from run to
        run."""
        g, s, loc = self.g, self.loop, self.loop.loc
        independent = IndependentLoop(g, s, self.pragma.loc)
        keeper = StateKeeper(g, lambda message: NotIndependent(message), s)
        assigned = assigned_syms(g.f.body.stmts)
        unsized = g.T.ctx.options.stack == "static" and not g.T.ctx.options.stack_size \
            and not any(_STACK_SIZE.match(p.text) for p in g.prog.pragmas)
        counted = []    # (the adjoint, its element count or None for a number, type)
        atomic, reduced = [], []    # the accesses of arrays, the numbers, added otherwise
        for lv, items in shared:
            root = ir.root_symbol(lv)
            if isinstance(lv, ir.Ref) and (root.type.resolved().is_pointer or
                                           root.type.resolved().is_array):
                try:
                    if unsized:
                        raise NotIndependent("no room for parts")
                    count = independent.element_count(getattr(root, "primal", root), keeper,
                                                      assigned)
                except NotIndependent:
                    atomic += items
                    continue
                counted.append((lv, count, ir.Ptr(strip_const(ir.pointee(root.type)))))
            elif unsized:
                reduced.append((lv, items))
            else:
                counted.append((lv, None, ir.Ptr(strip_const(lv.type))))
        # (every check made: the variables declared from here on are all used)
        for st, lv, _ in atomic:
            if isinstance(st, ir.Assign) and X.same_text(st.lhs, lv):
                st.exclusive = "omp atomic"
        sums = []       # (the number, its sum in the pragma's reduction)
        for lv, items in reduced:
            root = ir.root_symbol(lv)
            total = g.temp(source_name(getattr(root, "primal", root)) + "b_sum",
                           strip_const(lv.type))
            sums.append((lv, total))
            for st, at, _ in items:
                if isinstance(st, ir.Assign) and X.same_text(st.lhs, at):
                    sign, rest = increment(st.lhs, st.rhs)
                    st.lhs = ir.Ref(total)
                    st.rhs = ir.Binary("+" if sign > 0 else "-", ir.Ref(total), rest,
                                       total.type)
        parts = ThreadParts(g, loc)
        buffers, mapping = [], {}
        for lv, count, t in counted:
            root = ir.root_symbol(lv)
            name = source_name(getattr(root, "primal", root)) + "b"
            buf, part = g.temp(name + "_threads", t), g.temp(name + "_part", t)
            buffers.append((lv, buf, count, part))
            mapping[root] = ir.Deref(ir.Ref(part), ir.pointee(t)) \
                if count is None and isinstance(lv, ir.Ref) else ir.Ref(part)
        for st in ir.stmts_walk(back.body.stmts):
            if isinstance(st, ir.Assign):
                st.lhs, st.rhs = X.substitute(st.lhs, mapping), X.substitute(st.rhs, mapping)
            elif isinstance(st, (ir.If, ir.For)) and st.test is not None:
                st.test = X.substitute(st.test, mapping)
        one = ir.Const("1", ir.INT)
        back.body.stmts[:0] = [parts.this_thread(part, buf, one if count is None else count)
                               for _, buf, count, part in buffers]
        inside = {id(st) for st in ir.stmts_walk([back])}
        # (their sums are not split in two: that would add scalars the pragma misses)
        g.backward_loops = [(src, loop) for src, loop in g.backward_loops
                            if id(loop) not in inside]
        own = sorted({v.name for v in private if v is not counter} |
                     {part.name for _, _, _, part in buffers})
        text = "omp parallel for schedule(static)" + (
            f" firstprivate({', '.join(own)})" if own else "") + (
            f" reduction(+: {', '.join(total.name for _, total in sums)})" if sums else "")
        before = [parts.counted()] if buffers else []
        before += [ir.Assign(ir.Ref(total), X.zero(total.type), loc) for _, total in sums]
        before += [parts.allocated(buf, one if count is None else count)
                   for _, buf, count, _ in buffers]
        after = parts.added_up([(buf, one if count is None else count)
                                for _, buf, count, _ in buffers])
        for lv, buf, count, _ in buffers:
            after += independent.scaled(lv, buf, count, None, first=count is None)
        after += [ir.Raw("scratch_free", {"ptr": ir.Ref(buf)}, loc)
                  for _, buf, _, _ in reversed(buffers)]
        after += [ir.Assign(X.clone(lv), X.add(X.clone(lv), ir.Ref(total)), loc)
                  for lv, total in sums]
        g.explain(s, "backward iterations", "run in parallel",
                  "#pragma omp parallel for: each iteration writes its own elements and "
                  "keeps what it stores in slots of its own" + (
                      "; the adjoints every iteration adds into are added in parts of each "
                      "thread's" if buffers else "") + (
                      "; some atomically or in a reduction (their parts would take room "
                      "adgen cannot tell)" if atomic or sums else ""))
        at = next(k for k, st in enumerate(bwd) if st is back)
        return bwd[:at] + before + [ir.Raw("pragma", {"text": text}, loc), back] + after + \
            bwd[at + 1:]


def own_index(items, var, changed, ranges, scopes):
    """The index at which every access of items (of one memory) is made, when it is the
    same in all and each iteration has elements of its own there: `a * var + b` with a a
    nonzero constant and b free of what the loop changes, or a row `var * m + j + d` with
    j + d in [0, m) (see rows), every access in the loop of j (scopes: {j: ids of its
    statements}); else None."""
    index = None
    for _, lv, _ in items:
        if not (isinstance(lv, ir.Index) and isinstance(lv.base, ir.Ref)):
            return None
        if index is None:
            index = lv.index
        elif not X.same_text(index, lv.index):
            return None
    roots = {ir.root_symbol(lv) for _, lv, _ in items}
    if len(roots) != 1:
        return None
    if affine_coefficient(index, var, changed):
        return index
    j = rows(index, var, changed, ranges)
    if j is None or not all(id(st) in scopes.get(j, ()) for st, _, _ in items):
        return None
    return index


def primal_scopes(body, func):
    """{counter: ids of the statements in its loop} of the counted loops in body."""
    out = {}
    for st in ir.stmts_walk(body):
        canon = canonical_loop(st, func) if isinstance(st, ir.For) else None
        if canon is not None:
            out.setdefault(canon[0], set()).update(id(x) for x in ir.stmts_walk(st.body.stmts))
    return out


def replay_scopes(body, ranges):
    """{counter: ids of the statements after it is set} in a backward loop's body: a
    counter of ranges is set only at the top of the backward loops that replay its loop
    (`j = start + k * stride`, k over the loop's trip count), where it takes the values it
    took in the primal loop."""
    out, sets = {}, {}
    for st in ir.stmts_walk(body):
        if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and st.lhs.sym in ranges:
            sets[st.lhs.sym] = sets.get(st.lhs.sym, 0) + 1
    replays = {}
    for st in ir.stmts_walk(body):
        if not isinstance(st, ir.For):
            continue
        for k, top in enumerate(st.body.stmts):
            if isinstance(top, ir.Assign) and isinstance(top.lhs, ir.Ref) and \
                    top.lhs.sym in ranges:
                j = top.lhs.sym
                replays[j] = replays.get(j, 0) + 1
                out.setdefault(j, set()).update(
                    id(x) for x in ir.stmts_walk(st.body.stmts[k + 1:]))
    return {j: ids for j, ids in out.items() if replays[j] == sets[j]}


def inner_ranges(body, func):
    """{counter: (lowest value, bound, c)} of the counted loops in body whose counter j
    runs up by a constant from a constant at least 0 and stays below bound + c (c a
    constant), and that nothing else in body sets."""
    out, sets = {}, {}
    for st in ir.stmts_walk(body):
        if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref):
            sets[st.lhs.sym] = sets.get(st.lhs.sym, 0) + 1
    for st in ir.stmts_walk(body):
        canon = canonical_loop(st, func) if isinstance(st, ir.For) else None
        if canon is None or len(st.init) != 1 or len(st.step) != 1:
            continue
        j, stride = canon
        lowest = X.int_value(st.init[0].rhs)
        test = normal_test(st.test, j, stride)
        if sets.get(j) != 2 or lowest is None or lowest < 0 or test is None or \
                (X.int_value(stride) or 0) <= 0 or test[0] not in ("<", "<="):
            continue
        op, offset, bound = test
        c = -offset + (1 if op == "<=" else 0)
        while isinstance(bound, ir.Binary) and bound.op in "+-" and \
                X.int_value(bound.right) is not None:
            c += X.int_value(bound.right) * (1 if bound.op == "+" else -1)
            bound = bound.left
        out[j] = (lowest, bound, c)
    return out


def rows(e, var, changed, ranges):
    """j when the index e is `var * m + j + d` (in any order): m free of what the loop
    changes, j the counter of an inner loop that keeps j + d in [0, m), d a constant: row
    var of a matrix with m columns, each iteration its own, within j's loop; else None."""
    terms = _terms(e, 1)
    if terms is None:
        return None
    scaled = [t for sign, t in terms if sign > 0 and isinstance(t, ir.Binary) and
              t.op == "*" and any(isinstance(x, ir.Ref) and x.sym is var
                                  for x in (t.left, t.right))]
    counters = [t for sign, t in terms if sign > 0 and isinstance(t, ir.Ref) and
                t.sym in ranges]
    if len(scaled) != 1 or len(counters) != 1:
        return None
    rest = [(sign, t) for sign, t in terms if t is not scaled[0] and t is not counters[0]]
    if any(X.int_value(t) is None for _, t in rest):
        return None
    d = sum(sign * X.int_value(t) for sign, t in rest)
    m = scaled[0].right if isinstance(scaled[0].left, ir.Ref) and \
        scaled[0].left.sym is var else scaled[0].left
    if affine_coefficient(m, var, changed) != 0:
        return None
    j = counters[0].sym
    lowest, bound, c = ranges[j]
    return j if lowest + d >= 0 and c + d <= 0 and X.same_text(bound, m) else None


def _terms(e, sign):
    """[(sign, term)] of a sum of terms, or None when e is not made of + and -."""
    while isinstance(e, ir.Cast) and e.type.resolved().is_int:
        e = e.arg
    if isinstance(e, ir.Binary) and e.op in "+-":
        left, right = _terms(e.left, sign), _terms(e.right, sign if e.op == "+" else -sign)
        return None if left is None or right is None else left + right
    return [(sign, e)]


def affine_coefficient(e, var, changed):
    """a when the integer expression e is `a * var + b`, b free of the variables changed
    and of memory; 0 when e is free of var; None otherwise."""
    while isinstance(e, ir.Cast) and e.type.resolved().is_int:
        e = e.arg
    if isinstance(e, ir.Ref):
        if e.sym is var:
            return 1
        return None if e.sym in changed or not e.sym.type.resolved().is_int else 0
    if isinstance(e, ir.Const):
        return 0 if X.int_value(e) is not None else None
    if isinstance(e, ir.Unary) and e.op == "-":
        a = affine_coefficient(e.arg, var, changed)
        return None if a is None else -a
    if isinstance(e, ir.Binary) and e.op in "+-":
        a = affine_coefficient(e.left, var, changed)
        b = affine_coefficient(e.right, var, changed)
        if a is None or b is None:
            return None
        return a + b if e.op == "+" else a - b
    if isinstance(e, ir.Binary) and e.op == "*":
        a = affine_coefficient(e.left, var, changed)
        b = affine_coefficient(e.right, var, changed)
        if a is None or b is None:
            return None
        if a == 0 and b == 0:
            return 0
        factor = X.int_value(e.right if a else e.left)
        return None if factor is None else (a or b) * factor
    return None


def accesses(stmts):
    """(statement, lvalue, written) of the memory the statements name (variables,
    elements, what pointers point to), nested statements included."""
    for st in ir.stmts_walk(stmts):
        if isinstance(st, ir.Assign):
            yield st, st.lhs, True
            for e in _inner(st.lhs):
                yield from ((st, lv, False) for lv in _lvalues(e))
            exprs = [st.rhs]
        else:
            exprs = ir.stmt_exprs(st)
        for e in exprs:
            yield from ((st, lv, False) for lv in _lvalues(e))


def _lvalues(e):
    if isinstance(e, (ir.Ref, ir.Index, ir.Deref, ir.Member)):
        yield e
        for inner in _inner(e):
            yield from _lvalues(inner)
        return
    for f in dataclasses.fields(e):
        value = getattr(e, f.name)
        if isinstance(value, ir.Expr) and f.name != "type":
            yield from _lvalues(value)
        elif isinstance(value, list):
            for x in value:
                if isinstance(x, ir.Expr):
                    yield from _lvalues(x)


def _inner(lv):
    """The expressions an lvalue reads to find its place: its indices, the pointers it
    goes through that are not themselves lvalues of it."""
    out = []
    for x in ir.lvalue_chain(lv):
        if isinstance(x, ir.Index):
            out.append(x.index)
        elif isinstance(x, ir.Deref) and not isinstance(x.ptr, (ir.Ref, ir.Index, ir.Deref,
                                                                 ir.Member, ir.Cast)):
            out.append(x.ptr)
    return out


def _outermost_loop(stmts, target, around=None):
    """The outermost loop of stmts around the statement target (target itself when none
    is), None when target is not in stmts."""
    for st in stmts:
        if st is target:
            return around or target
        loop = around or (st if isinstance(st, (ir.For, ir.While, ir.DoWhile)) else None)
        for inner in ir.statements_inside(st) if isinstance(st, ir.COMPOUND) else ():
            found = _outermost_loop([inner], target, loop)
            if found is not None:
                return found
    return None


def _first_overwrites(stmts):
    """{scalar: the push} of each scalar whose value is pushed before anything in stmts
    writes it (then it is the value an earlier iteration left, or the loop found)."""
    firsts, written = {}, set()
    for st in ir.stmts_walk(stmts):
        if isinstance(st, ir.Push) and isinstance(st.value, ir.Ref) and \
                st.value.sym not in written:
            firsts.setdefault(st.value.sym, st)
        if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref):
            written.add(st.lhs.sym)
        for e in ir.stmt_exprs(st):
            written |= {x.arg.sym for x in ir.walk(e)
                        if isinstance(x, ir.AddrOf) and isinstance(x.arg, ir.Ref)}
    return firsts


def _own(sweeps, primal, kind):
    """The statements of a kind that the sweep of a primal statement makes itself (those of
    the statements inside it not counted), in order."""
    inner = {id(x) for st in ir.statements_inside(primal) if isinstance(primal, ir.COMPOUND)
             for x in ir.stmts_walk(sweeps.get(id(st), ()))}
    return [x for x in ir.stmts_walk(sweeps.get(id(primal), ()))
            if isinstance(x, kind) and id(x) not in inner]


def _replace(stmts, replaced):
    """The lists nested in stmts (blocks, branches) with each statement whose id is in
    replaced replaced (None: removed)."""
    for st in stmts:
        for inner in ir.nested_lists(st):
            inner[:] = [replaced.get(id(x), x) for x in inner
                        if replaced.get(id(x), x) is not None]
            _replace(inner, replaced)


def _exclusive(st, lv):
    """True when lv is what st, an exclusive sum (`#pragma omp atomic` over `x += e`),
    adds into: the iterations' sums commute, and their adjoints only read lv's."""
    return isinstance(st, ir.Assign) and st.exclusive is not None and \
        X.same_text(lv, st.lhs) and increment(st.lhs, st.rhs) is not None


def _is_scalar(lv):
    return isinstance(lv, ir.Ref) and not lv.sym.type.resolved().is_array


def source_name_of(g, func):
    f = g.prog.functions.get(func)
    return source_name(f) if f is not None else func
