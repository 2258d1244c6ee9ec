"""Checkpointing of time-stepping loops: `#pragma adgen binomial_ckp(nsteps, nsnaps, first)`
before a counted loop.

The forward sweep runs the loop as the primal does, storing nothing but the state before
it. The backward sweep reverses the steps from the last to the first, each by restoring a
stored state, running forward to the step (plainly), then running that one step with its
recording forward sweep followed at once by its backward sweep. States are kept at most
`nsnaps` at a time, where the binomial schedule of Griewank's revolve puts them
(adgen_checkpoint_split: no step runs again more often than it must with that many
states; with no state left, the steps of a stretch are reached from its start each time):
memory does not grow with the number of steps, and the stack holds one step's values at a
time.

The state of a step is what the loop body writes: scalar variables, and arrays reached
through a parameter, a local array or a global, whose lengths adgen must know.
"""
import math
import re

from adgen import ir
from adgen.analysis.activity import field_closure, find, ruled_call_arrays
from adgen.analysis.first_access import READ, variables_first_access
from adgen.analysis.loops import assigned_syms, kept_while_fixed
from adgen.errors import AdgenError, MissingSize
from adgen.ir import exprs as X
from adgen.transform.common import base_symbol, source_name

PRAGMA = re.compile(r"\s*adgen\s+binomial_ckp\b\s*(\((.*)\))?\s*$")


def checkpoint_pragma(s):
    """The snapshot count of a `#pragma adgen binomial_ckp(nsteps, nsnaps, first)`
    statement, as C text (an expression for an ir.CheckpointPragma); None when s is not one."""
    if isinstance(s, ir.CheckpointPragma):
        return s.snaps
    if not isinstance(s, ir.Pragma):
        return None
    m = PRAGMA.match(s.text)
    if not m:
        return None
    args = [a.strip() for a in (m.group(2) or "").split(",")]
    if len(args) != 3 or not all(args):
        raise AdgenError("expected '#pragma adgen binomial_ckp(nsteps, nsnaps, first)'",
                         s.loc)
    return args[1]


CALL_MODE = re.compile(r"\s*adgen\s+(no)?checkpoint\s*$")


def call_mode_pragma(s):
    """"split" for `#pragma adgen nocheckpoint` (Fortran's `!$AD NOCHECKPOINT`), "joint"
    for `#pragma adgen checkpoint`: the mode of the call the directive stands before."""
    if isinstance(s, ir.Pragma) and not isinstance(s, ir.CheckpointPragma):
        m = CALL_MODE.match(s.text)
        if m:
            return "split" if m.group(1) else "joint"
    return None


def _int(v):
    return ir.Const(str(v), ir.INT)


class CheckpointedLoop:
    """Forward and backward statements of one checkpointed loop (for FuncGen)."""

    def __init__(self, gen, loop, snaps, pragma_loc):
        self.g = gen
        self.loop = loop
        self.snaps = snaps          # C text, or an expression (see checkpoint_pragma)
        self.loc = pragma_loc
        self.keeper = StateKeeper(gen, self.error, loop)

    def error(self, message):
        return AdgenError(f"binomial_ckp: {message}", self.loc)

    def build(self):
        from adgen.ir.reader import parse_expr_in_scope
        from adgen.analysis.loops import canonical_loop
        g, s = self.g, self.loop
        if isinstance(s, (ir.While, ir.DoWhile)):
            # also a for loop left by break or return: its number of steps is not counted
            raise self.error("the loop must be counted: `for (i = a; i < b; i += c)`, not "
                             "left by break or return")
        if not isinstance(s, ir.For):
            raise self.error("the directive must stand just before a for loop")
        canon = canonical_loop(s, g.f)
        if canon is None:
            raise self.error("the loop must be counted: `for (i = a; i < b; i += c)` whose "
                             "body changes neither i nor c")
        var, stride = canon
        start = s.init[0].rhs
        trips = g.trip_count(s, var, stride, start)
        if trips is None:
            raise self.error("the loop's bounds must not change inside it")
        if isinstance(self.snaps, ir.Expr):
            snaps = X.clone(self.snaps)
        else:
            try:
                snaps = parse_expr_in_scope(self.snaps, list(g.f.params) + list(g.f.locals),
                                            "binomial_ckp")
            except AdgenError as exc:
                raise self.error(f"the snapshot count: {exc.message}")
        g.forward_runs_again("binomial_ckp", self.loc)
        self.explain_schedule(trips, snaps)
        g.replayed[id(s)] = var
        g.checkpoint_depth += 1
        step_fwd, step_bwd = g.stmts(s.body.stmts)
        g.checkpoint_depth -= 1
        items = g.with_pointer_shadows(self.state_items(s, var))
        loc = s.loc
        T = lambda base, t: g.temp(base, t)     # noqa: E731
        n, k, top, mid = T("ckp_steps", ir.INT), T("ckp_k", ir.INT), T("ckp_top", ir.INT), \
            T("ckp_mid", ir.INT)
        nsnaps = T("ckp_snaps", ir.INT)
        lo, hi = T("ckp_from", ir.INT), T("ckp_to", ir.INT)
        frames = T("ckp_frames", ir.Ptr(ir.INT))
        R = ir.Ref
        store = StateStore(g, items)
        # for --stack-report: the kept states' bytes, and the blocks holding them
        g.checkpointed[id(s)] = (snaps, store.total, len(store.buffers) + 1)
        fwd = [ir.Comment(f"binomial checkpointing of the loop of line {loc.line}: the "
                          "state before it is kept, not its steps' values"),
               ir.Assign(R(n), trips, loc),
               ir.Assign(R(nsnaps), ir.Cond(ir.Binary("<", snaps, _int(1), ir.INT), _int(1),
                                            X.clone(snaps), ir.INT), loc)]
        fwd += store.allocated(R(nsnaps), loc)
        fwd += [ir.Raw("scratch_alloc", {"target": R(frames), "type": frames.type,
                                         "count": ir.Binary("*", _int(2), R(nsnaps), ir.INT)},
                       loc)]
        fwd += store.copy(_int(0), save=True)
        carried = carried_pointers(g, s.body.stmts)
        fwd.append(ir.For(s.init, s.test, s.step,
                          ir.Block(g.primal_moving_shadows(s.body.stmts, carried)), loc))

        def at(step):       # the loop counter at a step
            return ir.Assign(R(var), X.add(X.clone(start), X.mul(step, X.clone(stride))), loc)

        state = self.state_nodes(items)

        def rerun(stmts):
            # these bring a kept state back (writing it all) or run the primal again from
            # it: what they read of the state is never a value a pop restored (see
            # ReverseTransform.scan_backward_reads), so it is no reason to save it
            for st in ir.stmts_walk(stmts):
                g.rerun_state[id(st)] = g.rerun_state.get(id(st), frozenset()) | state
            return stmts

        def advance(first, last):
            return rerun([ir.For([ir.Assign(R(k), first)], ir.Binary("<", R(k), last, ir.INT),
                          [ir.Assign(R(k), X.add(R(k), _int(1)))],
                          ir.Block([at(R(k))] + g.primal_moving_shadows(s.body.stmts,
                                                                         carried)), loc)])

        def frame(i, which):    # frames[2*i] is a stretch's first step, [2*i+1] its end
            return ir.Index(R(frames), X.add(X.mul(_int(2), i), _int(which)), ir.INT)

        log_mark = T("ckp_log", ir.SIZE_T)

        def reverse_step(step):
            # what a step's backward sweep logs (callees restoring memory the caller sees)
            # is older than the final values logged before the loop: dropped at once
            fwd, bwd = g.copy_sweeps(step_fwd, step_bwd)
            return rerun([at(step)] + fwd) + bwd + [ir.Raw("log_cut", {"mark": R(log_mark)})]

        below = X.sub(R(top), _int(1))
        # the next state kept where the binomial schedule puts it, with the states left
        # (this stretch's own included)
        split = [ir.Assign(R(mid), X.add(R(lo), ir.Call(
                     "adgen_checkpoint_split",
                     [X.sub(R(hi), R(lo)), X.add(X.sub(R(nsnaps), R(top)), _int(1))],
                     ir.INT)), loc),
                 *advance(R(lo), R(mid))] + rerun(store.copy(R(top), save=True)) + [
                 ir.Assign(frame(below, 1), R(mid), loc),
                 ir.Assign(frame(R(top), 0), R(mid), loc),
                 ir.Assign(frame(R(top), 1), R(hi), loc),
                 ir.Assign(R(top), X.add(R(top), _int(1)), loc)]
        last = X.sub(R(hi), _int(1))
        no_room = advance(R(lo), X.clone(last)) + reverse_step(X.clone(last)) + \
            [ir.Assign(frame(below, 1), X.clone(last), loc)]
        body = [ir.Assign(R(lo), frame(below, 0), loc), ir.Assign(R(hi), frame(below, 1), loc),
                ir.If(ir.Binary("<=", R(hi), R(lo), ir.INT),
                      ir.Block([ir.Assign(R(top), X.sub(R(top), _int(1)), loc)]),
                      ir.Block(rerun(store.copy(X.clone(below), save=False)) + [
                          ir.If(ir.Binary("==", X.sub(R(hi), R(lo)), _int(1), ir.INT),
                                ir.Block(reverse_step(R(lo)) +
                                         [ir.Assign(R(top), X.sub(R(top), _int(1)), loc)]),
                                ir.Block([ir.If(ir.Binary("<", R(top), R(nsnaps), ir.INT),
                                                ir.Block(split), ir.Block(no_room), loc)]),
                                loc)]), loc)]
        bwd = [ir.Comment(f"the steps of the loop of line {loc.line}, last to first, each "
                          "reached from a kept state")]
        bwd += g.keep_final(items)
        bwd.append(ir.Raw("log_mark", {"target": R(log_mark)}))
        bwd += [ir.Assign(frame(_int(0), 0), _int(0), loc),
                ir.Assign(frame(_int(0), 1), R(n), loc),
                ir.Assign(R(top), _int(1), loc),
                ir.While(ir.Binary(">", R(top), _int(0), ir.INT), ir.Block(body), loc)]
        bwd += rerun(store.copy(_int(0), save=False))
        bwd += [ir.Raw("scratch_free", {"ptr": R(frames)})] + store.freed()
        if g.keeps_counter(s, var):
            fwd.insert(0, ir.Push(R(var), loc))
            bwd.append(ir.Pop(R(var), loc))
        if g.kind != "head" or g.loop_depth:
            # the two sweeps of a callee are two functions, and in a loop the forward
            # sweep meets the loop again before the backward sweep: the bookkeeping travels
            carried = [n, nsnaps, frames] + store.buffers
            fwd += [ir.Push(R(v), loc) for v in carried]
            bwd = [ir.Pop(R(v), loc) for v in reversed(carried)] + bwd
        return fwd, bwd

    def explain_schedule(self, trips, snaps):
        """The --explain line of the schedule: how often the steps run again."""
        from adgen.ir.fortran_text import source_text
        text = source_text(self.g.prog.language)
        steps, states = X.constant_value(X.fold(trips)), X.constant_value(X.fold(snaps))
        if isinstance(steps, int) and isinstance(states, int):
            states = max(states, 1)     # as the code keeps at least one
            t = 0
            while math.comb(states + t, t) < steps:
                t += 1
            runs = t * steps - math.comb(states + t, t - 1) if t else 0
            why = f"Griewank's binomial schedule: {steps} steps with {states} states run " \
                f"again {runs} times in all, each at most {t} times"
        else:
            why = "Griewank's binomial schedule: each step runs again at most t times, t " \
                "the least with C(states + t, t) >= steps, and t * steps - C(states + t, " \
                "t - 1) times in all, the fewest there can be"
        self.g.explain(self.loop, "steps", f"reversed from at most {text(snaps)} kept "
                       "states", why)

    # ------------------------------------------------------------------ state
    def state_nodes(self, items):
        """The memory nodes of the state kept, items (address, bytes) as copied."""
        return frozenset(item_node(self.g.mem, addr) for addr, _ in items)

    def state_items(self, loop, var):
        """(address, bytes) of everything the loop body writes, but its counter."""
        scalars, nodes = written_nodes(self.g, loop.body.stmts, var)
        return self.keeper.items(nodes, scalars)


class StateStore:
    """Where a checkpointed loop keeps its states: a buffer of each item's own type per
    item (`double *ckp_state_u`: a slot of n elements per state), so that the copies are
    typed, `memcpy(ckp_state_u + slot * n, u, n * sizeof(double))`, which adgen reads back
    when its output is differentiated again (docs/second-order.md); one buffer of bytes
    where an item's length is not written as a count of its elements."""

    def __init__(self, g, items, prefix="ckp_state_"):
        self.items = items
        self.total = None       # the bytes of one state (None: no item)
        for _, nbytes in items:
            self.total = X.clone(nbytes) if self.total is None else \
                X.add(self.total, X.clone(nbytes))
        # (an array item in a buffer of its numbers: `double *ckp_state_u` for `double
        # u[16]`)
        elems = [ir.array_element(ir.pointee(addr.type.resolved())) for addr, _ in items]
        counts = [X.element_count(nbytes, elem) for (_, nbytes), elem in zip(items, elems)]
        if any(c is None for c in counts):
            self.counts = [X.clone(self.total) if self.total is not None else _int(0)]
            self.buffers = [g.temp(prefix + "bytes", ir.Ptr(ir.Prim("unsigned char")))]
            self.typed = False
        else:
            self.counts = counts
            self.buffers = [g.temp(prefix + _item_name(addr),
                                   ir.Ptr(ir.with_const(elem, False)))
                            for (addr, _), elem in zip(items, elems)]
            self.typed = True

    def allocated(self, nsnaps, loc):
        return [ir.Raw("scratch_alloc", {"target": ir.Ref(buf), "type": buf.type,
                                         "count": X.mul(ir.Cast(ir.SIZE_T, nsnaps),
                                                        X.clone(count))}, loc)
                for buf, count in zip(self.buffers, self.counts)]

    def freed(self):
        return [ir.Raw("scratch_free", {"ptr": ir.Ref(buf)}) for buf in self.buffers]

    def copy(self, slot, save):
        """memcpy of every item to (save) or from slot `slot` of the kept states."""
        def at(buf, count):
            return ir.Binary("+", ir.Ref(buf), X.mul(ir.Cast(ir.SIZE_T, X.clone(slot)),
                                                     X.clone(count)), buf.type)
        if not self.typed:
            return copy_state(self.items, at(self.buffers[0], self.counts[0]), save)
        stmts = []
        for (addr, nbytes), buf, count in zip(self.items, self.buffers, self.counts):
            where = at(buf, count)
            src, dst = (addr, where) if save else (where, addr)
            stmts.append(ir.ExprStmt(ir.Call("memcpy", [X.clone(dst), X.clone(src),
                                                        X.clone(nbytes)], ir.VOID)))
        return stmts


def _item_name(addr):
    """A name for the buffer of the item at addr (`&e`: e, `u`: u, `&m->x`: x)."""
    e = addr.arg if isinstance(addr, ir.AddrOf) else addr
    if isinstance(e, ir.Member):
        return e.field
    syms = [x.sym for x in ir.walk(e) if isinstance(x, ir.Ref)]
    return getattr(syms[0], "primal", syms[0]).name if syms else "state"


def item_node(mem, addr):
    """The memory node of a kept item given by its address: `&x` (a variable) or a
    pointer to the elements."""
    return find(mem.loc(addr.arg)) if isinstance(addr, ir.AddrOf) else find(mem.target(addr))


def copy_state(items, base, save):
    """memcpy of every item (address, bytes) to (save) or from the bytes at base, one
    after the other."""
    stmts, offset = [], None
    for addr, nbytes in items:
        where = X.clone(base) if offset is None else \
            ir.Binary("+", X.clone(base), X.clone(offset), base.type)
        src, dst = (addr, where) if save else (where, addr)
        stmts.append(ir.ExprStmt(ir.Call("memcpy", [X.clone(dst), X.clone(src),
                                                    X.clone(nbytes)], ir.VOID)))
        offset = X.clone(nbytes) if offset is None else X.add(offset, X.clone(nbytes))
    return stmts


def written_nodes(g, stmts, var):
    """([(address, bytes)] of the scalar variables of g's function that stmts assign (but
    var and loop-local ones), the memory nodes they write otherwise, callees included)."""
    mem = g.mem
    items, nodes = [], set()
    for st in ir.stmts_walk(stmts):
        if isinstance(st, ir.Assign):
            lhs = st.lhs
            if isinstance(lhs, ir.Ref) and lhs.sym is not var and \
                    lhs.sym not in g.loop_local and not lhs.sym.type.resolved().is_array:
                items.append((ir.AddrOf(ir.Ref(lhs.sym), ir.Ptr(lhs.sym.type)),
                              ir.SizeOf(lhs.sym.type)))
            else:
                nodes.add(find(mem.loc(lhs)))
        # the calls it makes, also those whose result it assigns (r = step(n, u))
        for e in ir.stmt_exprs(st):
            for sub in ir.walk(e):
                if isinstance(sub, ir.Call) and sub.func in g.T.writes:
                    nodes |= {find(x) for x in g.T.writes[sub.func]}
        for call, f in g.T.ctx.ruled_calls(st):
            nodes |= set(ruled_call_arrays(mem, f, call, written=True))
    return items, nodes


def carried_pointers(g, body):
    """The pointer variables of g's function that the statements `body` (a loop's) set
    and may read before setting them: pointers carried from one iteration to the next (two
    buffers swapped), not those each iteration sets before using them."""
    candidates = {a.arg.sym for a, _ in written_nodes(g, body, None)[0]
                  if isinstance(a.arg, ir.Ref) and a.arg.sym.type.resolved().is_pointer}

    return {sym for sym in candidates if variables_first_access(body, {sym}) == READ}


class StateKeeper:
    """What a stretch of a function writes, as (address, bytes) of whole variables of the
    function (parameters' arrays, locals, globals), for code that keeps that state and
    brings it back: a checkpointed loop, a call in joint mode. `error` makes the
    AdgenError raised when some memory cannot be kept."""

    def __init__(self, gen, error, loop=None):
        self.g = gen
        self.error = error
        self.loop = loop            # a checkpointed loop, whose state is kept between steps
        self._own_heap = {}         # node -> own_heap(node)

    def items(self, nodes, items=(), optional_ok=False):
        """items (already known), then the variables holding the memory nodes, once
        each; a callee's own variables are left out. Without optional_ok, memory reached
        through an OPTIONAL dummy argument (whose pointer may be null) is refused."""
        from adgen.ir.c_text import expr_c
        g = self.g
        # a temporary allocated and freed around one statement holds nothing across it,
        # nor does its pointer (freed: not even read)
        items = [(a, n) for a, n in items
                 if not getattr(base_symbol(a), "statement_temp", False)]
        nodes = set(nodes)
        nodes -= self.private_nodes(nodes)
        nodes = {n for n in nodes if not any(getattr(p, "statement_temp", False)
                                             for p in self.pointer_holders(n))}
        moved = {expr_c(a) for a, _ in items}
        for n in nodes & g.mem.not_named():
            own = self.own_heap(n)
            # (swapped blocks, several items, have pointers the loop moves by design)
            if own is not None and len(own) == 1 and \
                    expr_c(ir.AddrOf(own[0][0], ir.Ptr(own[0][0].type))) in moved:
                raise self.error(f"the code allocates '{own[0][0].sym.name}' again, which "
                                 "adgen cannot keep")
            if own is None and not self.caller_heap(n):
                raise self.error("the code writes memory allocated with malloc or reached "
                                 "through pointers held in memory, which adgen cannot keep")
        seen = {id(a) for a, _ in items}
        for node in sorted(nodes, key=lambda n: n.uid):
            roots = self.roots(node)
            if not roots and g.mem.only_constant(node):
                continue        # written only through a null pointer: there is none
            if not roots:
                raise self.error("the code writes memory that is not reached through a "
                                 "parameter, a local array or a global of "
                                 f"'{source_name(g.f)}', which adgen cannot keep")
            for r in roots:
                if id(r) not in seen:
                    items.append(r)
        # one item per variable: several nodes may reach the same one
        shadowed = {v.primal for v in g.T.ctx.shadow_globals()
                    if isinstance(v.primal.type.resolved(), ir.Ptr)}
        out, texts = [], set()
        for addr, nbytes in items:
            key = expr_c(addr)
            base = base_symbol(addr)
            if base in shadowed:
                # its shadow moves with it in the recording forward sweep only: a state
                # kept by the primal code would not hold where the derivatives are
                raise self.error(f"the code sets the global pointer '{source_name(base)}' "
                                 "to active data, which adgen cannot keep")
            if not optional_ok and getattr(base, "optional", False):
                raise self.error(f"the state to keep includes the OPTIONAL argument "
                                 f"'{source_name(base)}', which adgen cannot keep here")
            if key not in texts:
                texts.add(key)
                out.append((addr, nbytes))
        return out

    def caller_heap(self, node):
        """True when node is heap memory that a caller allocated and handed down: reached
        here only through pointer parameters (kept through them, as any array a caller
        hands down), not through pointers held in memory or in globals, in a function
        that allocates nothing itself but temporaries of one statement (a Fortran
        `pack(...)`'s, allocated and freed around it), nor through its callees."""
        from adgen.rules import ALLOCATION
        from adgen.transform.common import alloc_call
        g = self.g
        if node in g.mem.held_pointees() or any(
                g.T.ctx.calls(c, ALLOCATION) for c in g.T.ctx.called(g.f.name)
                if c in g.prog.functions and not getattr(g.prog.functions[c],
                                                         "is_library", False)):
            return False
        for st in ir.stmts_walk(g.f.body.stmts):
            if any(isinstance(x, ir.Call) and x.func in ALLOCATION and x.func != "free"
                   for e in ir.stmt_exprs(st) for x in ir.walk(e)) and not (
                    isinstance(st, ir.Assign) and alloc_call(st.rhs) is not None and
                    getattr(base_symbol(st.lhs), "statement_temp", False)):
                return False
        holders = self.pointer_holders(node)
        return not any(v in g.prog.globals for v in holders) and \
            any(v in g.f.params for v in holders)

    def pointer_holders(self, node):
        """The pointer variables of this function (parameters, globals, locals) that
        point into node."""
        g = self.g
        mem = g.mem
        return [v for v in list(g.f.params) + list(g.prog.globals) + list(g.f.locals)
                if isinstance(v.type.resolved(), ir.Ptr) and
                find(mem.pointee(mem.var(v))) is node]

    def own_heap(self, node):
        """[(pointer, bytes)] when node is a block of numbers this function allocates with
        one malloc (or calloc), held by one local pointer that nothing else assigns, of a
        size whose variables are each set once before that allocation and never through
        their address (or a Fortran allocatable array allocated at several places, whose
        extents then give the size): the block is kept through the pointer. In a
        checkpointed loop also blocks swapped between its steps (swapped_heap): one item
        per block. None otherwise."""
        if node not in self._own_heap:
            own = self._find_own_heap(node)
            self._own_heap[node] = [own] if own is not None else self.swapped_heap(node)
        return self._own_heap[node]

    def local_number_pointers(self, node):
        """The pointers holding the heap memory node, when they are all local pointers to
        numbers (pointers, rows and structs have shadows set forward) and no pointer
        held in memory reaches it; None otherwise."""
        g = self.g
        if node in g.mem.held_pointees():
            return None
        holders = self.pointer_holders(node)
        if not holders or any(h not in g.f.locals or not isinstance(
                h.type.resolved().target.resolved(), ir.Prim) for h in holders):
            return None
        return holders

    def _find_own_heap(self, node):
        from adgen.transform.common import alloc_bytes, alloc_call
        from adgen.analysis.loops import address_taken
        f = self.g.f
        pointers = self.local_number_pointers(node)
        if pointers is None:
            return None
        order = list(ir.stmts_walk(f.body.stmts))
        taken = address_taken(f)

        def sets_of(p):
            # (setting it to null, after the block is freed, holds no other block)
            return [k for k, st in enumerate(order) if isinstance(st, ir.Assign) and
                    isinstance(st.lhs, ir.Ref) and st.lhs.sym is p and not X.is_null(st.rhs)]
        allocated = [p for p in pointers
                     if any(alloc_call(order[k].rhs) is not None for k in sets_of(p))]
        if len(allocated) != 1:
            return None
        p = allocated[0]
        sets = sets_of(p)
        # the other pointers to the block: copies of its start made after the allocation
        # (`q = p`, `q = &p[0]`), which keeping the block through p covers
        if any(q in taken or not all(k > max(sets) and _start_of(order[k].rhs, p)
                                     for k in sets_of(q))
               for q in pointers if q is not p):
            return None
        calls = [alloc_call(order[k].rhs) for k in sets]
        if not calls or any(c is None for c in calls):
            return None
        if len(calls) == 1:
            nbytes = self.allocation_bytes(order, sets[0], alloc_bytes(calls[0]), taken)
            if nbytes is not None:
                return ir.Ref(p), nbytes
        # a Fortran allocatable array allocated at several places (ALLOCATE, assignments
        # that reallocate it): its extents tell the size of the block it holds
        extents = getattr(p, "extent_vars", None)
        if extents is None or set(extents) & taken:
            return None
        size = ir.SizeOf(p.type.resolved().target)
        for e in extents:
            size = X.mul(ir.Cast(ir.SIZE_T, ir.Ref(e)), size)
        return ir.Ref(p), size

    def swapped_heap(self, node):
        """[(pointer, bytes)] when node is blocks of numbers of one size, each allocated
        once, before the checkpointed loop, by a malloc (or calloc) into a local pointer of
        its own, whose pointers nothing assigns but copies of one another (and null), and
        whose loop body only permutes them, at its top level (`t = cur; cur = nxt; nxt =
        t;`): at the start of every step the allocated pointers hold the blocks, one each,
        and the blocks are kept through them. None otherwise."""
        from adgen.ir.c_text import expr_c
        from adgen.transform.common import alloc_bytes, alloc_call
        from adgen.analysis.loops import address_taken
        f, loop = self.g.f, self.loop
        holders = self.local_number_pointers(node) if loop is not None else None
        if holders is None:
            return None
        taken = address_taken(f)
        if set(holders) & taken:
            return None

        def copied(e):      # the holder e copies, or None
            while isinstance(e, ir.Cast):
                e = e.arg
            return e.sym if isinstance(e, ir.Ref) and e.sym in holders else None

        order = list(ir.stmts_walk(f.body.stmts))
        at_loop = next((k for k, st in enumerate(order) if st is loop), None)
        if at_loop is None:
            return None
        allocated = {}      # pointer -> (its allocation's position in order, bytes)
        for k, st in enumerate(order):
            if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and \
                    st.lhs.sym in holders and not X.is_null(st.rhs) and not copied(st.rhs):
                call = alloc_call(st.rhs)
                if call is None or st.lhs.sym in allocated or k > at_loop:
                    return None
                allocated[st.lhs.sym] = (k, self.allocation_bytes(order, k, alloc_bytes(call),
                                                                  taken))
        sizes = {expr_c(n) if n is not None else None for _, n in allocated.values()}
        if len(allocated) < 2 or len(sizes) != 1 or None in sizes:
            return None
        # nothing but the loop body moves an allocated pointer after its allocation (but
        # to null: freed), also after the loop (an outer loop runs the loop again)
        in_body = {id(st) for st in ir.stmts_walk(loop.body.stmts)}
        for p, (k, _) in allocated.items():
            if any(isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and
                   st.lhs.sym is p and id(st) not in in_body and not X.is_null(st.rhs)
                   for st in order[k + 1:]):
                return None
        # the loop body's top-level copies permute the allocated pointers
        moves = [st for st in ir.stmts_walk(loop.body.stmts) if isinstance(st, ir.Assign) and
                 isinstance(st.lhs, ir.Ref) and st.lhs.sym in holders]
        if any(not any(st is top for top in loop.body.stmts) for st in moves):
            return None
        held = {h: h for h in holders}
        for st in moves:
            if copied(st.rhs) is None:
                return None
            held[st.lhs.sym] = held[copied(st.rhs)]
        if {held[p] for p in allocated} != set(allocated):
            return None
        return [(ir.Ref(p), X.clone(n)) for p, (_, n) in
                sorted(allocated.items(), key=lambda item: item[1][0])]

    @staticmethod
    def allocation_bytes(order, k, nbytes, taken):
        """nbytes, the size the allocation at order[k] asks for, as an expression whose
        variables keep their values from there on: each set once before it, never after
        it nor through its address (taken: the function's variables whose address it
        takes); a variable set once before it and again later (a Fortran pointer's
        extent, moved with the pointer) is replaced by the value it was set to. None when
        there is no such expression."""
        sets = {}
        for st in order[:k]:
            if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref):
                sets.setdefault(st.lhs.sym, []).append(st.rhs)
        later = assigned_syms(order[k + 1:])

        def steady(e):
            return all(len(sets.get(r.sym, ())) <= 1 and r.sym not in later and
                       r.sym not in taken for r in ir.walk(e) if isinstance(r, ir.Ref))

        moved = {r.sym: sets[r.sym][0] for r in ir.walk(nbytes) if isinstance(r, ir.Ref) and
                 r.sym in later and len(sets.get(r.sym, ())) == 1}
        out = X.substitute(nbytes, moved) if moved else nbytes
        return out if steady(out) else None

    def private_nodes(self, nodes):
        """Of nodes, the variables of the other functions, and the heap blocks their local
        pointers hold: a callee's own, gone (or out of reach) when it returns. Not those
        this function reaches through its parameters, globals or own variables: a caller's
        local array handed down, a block a callee returns, is memory this function
        changes."""
        from adgen.analysis.activity import reachable_nodes
        g = self.g
        # (the program's functions stay as they are while the transforms run)
        functions = kept_while_fixed("defined", (g.prog,), None, lambda: tuple(
            h for h in g.prog.functions.values() if h.has_body))
        owners = g.mem.owner_counts(functions)
        # (what g.f owns counts once among the owners, and is not another function's)
        mine = g.mem.own_nodes(g.f) if any(h is g.f for h in functions) else frozenset()
        out = {n for n in nodes if owners.get(n, 0) > (n in mine)}
        if not out:
            return out
        return out - reachable_nodes([g.mem.var(v) for v in list(g.f.params) +
                                      list(g.f.locals) + list(g.prog.globals)])

    def roots(self, node):
        """(address, bytes) of the variables of this function whose memory is node."""
        from adgen.analysis.extent import Unknown
        g = self.g
        mem, f = g.mem, g.f
        out = []
        assigned = assigned_syms(f.body.stmts)
        for p in f.params:
            t = p.type.resolved()
            if isinstance(t, ir.Ptr) and node in field_closure(mem.pointee(mem.var(p))):
                if p in assigned:
                    raise self.error(f"the code writes through '{p.name}', which the "
                                     "function moves")
                try:
                    n = g.T.ctx.try_extent(f, p)
                except Unknown as exc:
                    error = self.error(f"cannot tell how many elements '{p.name}' has "
                                       f"({exc}); give it with --size {p.name}=EXPR")
                    raise MissingSize(error.message, error.loc, p.name)
                out.append((ir.Ref(p), X.mul(n, ir.SizeOf(ir.with_const(t.target, False)))))
        if any(not a.type.resolved().target.const for a, _ in out):
            # the memory is written through the others: a const view of it is left alone
            out = [(a, n) for a, n in out if not a.type.resolved().target.const]
        else:
            # only const views here, while a callee writes the memory (through a pointer
            # of its own): kept and brought back through the view, cast
            out = [(ir.Cast(ir.Ptr(ir.with_const(a.type.resolved().target, False)), a), n)
                   for a, n in out]
        for pointer, nbytes in self.own_heap(node) or ():
            out.append((X.clone(pointer), X.clone(nbytes)))
        for sym in list(f.locals) + list(g.prog.globals):
            t = sym.type.resolved()
            if node in field_closure(mem.var(sym)) or (
                    isinstance(t, ir.Arr) and
                    node in field_closure(mem.loc(ir.Index(ir.Ref(sym), _int(0), t.elem)))):
                if getattr(sym, "is_library", False):
                    continue
                out.append((ir.AddrOf(ir.Ref(sym), ir.Ptr(sym.type)), ir.SizeOf(sym.type)))
        return out


def _start_of(e, p):
    """True when pointer expression e is the start of the block pointer variable p holds:
    `p`, `&p[0]`, `p + 0`, or a cast of one."""
    while isinstance(e, ir.Cast):
        e = e.arg
    if isinstance(e, ir.Ref):
        return e.sym is p
    if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Index):
        return isinstance(e.arg.base, ir.Ref) and e.arg.base.sym is p and \
            X.int_value(e.arg.index) == 0
    if isinstance(e, ir.Binary) and e.op in "+-":
        return _start_of(e.left, p) and X.int_value(e.right) == 0
    return False
