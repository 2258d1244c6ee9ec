"""Pushes of consecutive elements made one block push.

A loop `for (i = a; i < b; i++) { ... x[i] = e; ... }` whose forward sweep saves x[i]
before overwriting it pushes b - a values one at a time: a call, a capacity check and a copy
each, in a loop gcc then cannot vectorize. When nothing in the loop writes an element of x
before its own iteration saves it, the values pushed are x[a .. b-1] as they are before the
loop, and they lie on the stack in that order, one after the other: one push of the whole
block before the loop leaves the same bytes on the stack. In the backward loop each
iteration pops its own element; when the backward loop reads or writes no element of x but
its own one, and that only after the pop, popping the whole block before the loop restores
the same values where they are read. Both loops must then push or pop nothing else (the
stack would interleave), call nothing but math functions, and count their iterations
from bounds known before them.

The analyses (to-be-recorded, stack usage) read the sweeps as made, one element at a time
(FuncGen.fwd_of keeps the element pushes): the block carries the same bytes, so what they
conclude holds for it. Its statements (push_block, pop_block) are not counted again.

An element that every iteration overwrites at one place (`b[i][j] += a[k][i] * b[k][j]`
in a loop over k) is pushed once per iteration and popped once per backward iteration.
When no backward iteration reads that element (its partials read other elements, as here,
where k > i), the values the pops bring back in between are never read: only the last
one, the value from before the loop, matters. One push before the forward loop and one pop
after the backward loop then do (hoisted_pushes); the stack keeps one value, not one per
iteration. The stack usage counts it once (FuncGen.hoisted).
"""
from adgen import ir
from adgen.analysis.loops import assigned_syms
from adgen.analysis.poly import NotPolynomial, Poly, nonneg_within
from adgen.ir import exprs as X
from adgen.ir.exprs import same_text
from adgen.rules import LIBRARY_FUNCTIONS
from adgen.transform.split_sums import (UNKNOWN, fixed_place, invariant_index,
                                        replace_stmt, stores_no_integer)


class BlockLoop:
    """A counted loop whose sweeps may push and pop one block (when it counts up by one),
    or one value for the whole loop: the primal loop, the forward loop, the backward loop,
    the counter, its first value, the trip count before the forward loop (`n > 0 ? n : 0`,
    of values the loop does not change), the variable that holds it before the backward
    loop, and the counter's step."""

    def __init__(self, source, fwd, bwd, var, start, count, count_var, stride):
        self.source, self.fwd, self.bwd = source, fwd, bwd
        self.var, self.start, self.count, self.count_var = var, start, count, count_var
        self.stride = stride


def block_pushes(loop, storage, stack_ops):
    """(statements before the forward loop, statements before the backward loop) that push
    and pop as one block what the loops push and pop one element at a time, the loops'
    own pushes and pops removed; None (nothing changed) when they do not qualify.

    storage(lvalue) is a key of the memory an lvalue names (see split_sums); stack_ops the
    StackOps of the sweeps."""
    fwd_body, bwd_body = loop.fwd.body.stmts, loop.bwd.body.stmts
    if X.int_value(loop.stride) != 1:
        return None
    push = stack_ops.single(fwd_body, ir.Push)
    pop = stack_ops.single(bwd_body, ir.Pop)
    if push is None or pop is None or pop.keep or not ir.is_lvalue(push.value) or \
            not same_text(push.value, pop.target):
        return None
    elem = push.value
    changed = assigned_syms(fwd_body) | {loop.var}
    if not _consecutive(elem, loop.var, changed, stores_no_integer(fwd_body)):
        return None
    key = storage(elem)
    if key is UNKNOWN or not _plain(fwd_body) or not _plain(bwd_body):
        return None
    # forward: the element is written only by its own iteration, after the push
    if not _touched_only_after(fwd_body, push, elem, key, storage, writes_only=True):
        return None
    # backward: the element is read or written only by its own iteration, after the pop
    if not _touched_only_after(bwd_body, pop, elem, key, storage, writes_only=False):
        return None
    t = ir.with_const(elem.type, False)
    first = ir.Index(X.clone(elem.base),
                     X.fold(X.substitute(elem.index, {loop.var: X.clone(loop.start)})), t)
    at = ir.AddrOf(first, ir.Ptr(t))
    zero = ir.Const("0", ir.INT)
    positive, count = _runs(loop.count)

    def block(template, positive, count, loc):
        nbytes = X.mul(ir.Cast(ir.SIZE_T, X.clone(count)), ir.SizeOf(t))
        return ir.If(X.clone(positive), ir.Block([ir.Raw(template, {"ptr": X.clone(at),
                                                                    "bytes": nbytes}, loc)]),
                     None, loc)

    what = f"{_text(elem)} of every iteration, as one block"
    before_f = [ir.Comment(f"{what} (each iteration overwrites its own after this)",
                           push.loc),
                block("push_block", positive, count, push.loc)]
    kept = ir.Ref(loop.count_var)
    before_b = [ir.Comment(f"{what} (each iteration reads its own after this)", pop.loc),
                block("pop_block", ir.Binary(">", kept, zero, ir.INT), kept, pop.loc)]
    fwd_body.remove(push)
    bwd_body.remove(pop)
    return before_f, before_b


def _runs(count):
    """(test that a loop runs, its trip count) from the count `n > 0 ? n : 0`."""
    if isinstance(count, ir.Cond) and X.int_value(count.other) == 0:
        return count.test, count.then
    return ir.Binary(">", count, ir.Const("0", ir.INT), ir.INT), count


def push_blocks(loops, fns, storage, copies=(), apart=None):
    """Make hoisted pushes and block pushes of the loops (BlockLoop) that qualify, in the
    finished functions fns, and of their copies (`copies`: {id(statement): its copy} for
    each copy of a stretch's sweeps, see FuncGen.copy_sweeps). A loop whose two sweeps are
    not each found once there is left as it is. apart(loop) gives, for a primal loop, a
    test whether two lvalues never name the same element inside it (hoisted_pushes), or
    None. Returns (loop, element pushed, "block" or "hoisted") for each loop and element
    changed at least once."""
    done = []
    seen = _occurrences(fns)
    stack_ops = StackOps()
    for loop in loops:
        elem, hoisted = None, None     # hoisted: {text: element} of every copy
        test = apart(loop.source) if apart is not None else None
        for each in _with_copies(loop, copies):
            if seen.get(id(each.fwd)) != 1 or seen.get(id(each.bwd)) != 1:
                if seen.get(id(each.fwd)) or seen.get(id(each.bwd)):
                    hoisted = {}        # in the output, left as it is
                continue
            lifted = hoisted_pushes(each, storage, test) if test is not None else None
            if lifted is not None:
                stack_ops.forget()
                before_f, after_b, elems = lifted
                _insert(fns, each.fwd, before_f + [each.fwd])
                _insert(fns, each.bwd, [each.bwd] + after_b)
            made_here = {_text(e): e for e in lifted[2]} if lifted is not None else {}
            hoisted = made_here if hoisted is None else \
                {t: e for t, e in hoisted.items() if t in made_here}
            pushed = _pushed(each, stack_ops)
            made = block_pushes(each, storage, stack_ops)
            if made is None:
                continue
            stack_ops.forget()      # the loops around lost a push and a pop
            for stmt, before in ((each.fwd, made[0]), (each.bwd, made[1])):
                _insert(fns, stmt, before + [stmt])
            elem = pushed
        if elem is not None:
            done.append((loop, elem, "block"))
        # (an element hoisted in some copies only is counted per iteration: at most; the
        # sweeps of a checkpointed loop's step are in the output only as copies)
        done += [(loop, e, "hoisted") for e in (hoisted or {}).values()]
    return done


def _insert(fns, stmt, new):
    for fn in fns:
        if replace_stmt(fn.body, stmt, new):
            return


def hoisted_pushes(loop, storage, apart):
    """(statements before the forward loop, statements after the backward loop, elements)
    that push once and pop once the elements the loops push and pop in every iteration at
    one place (hoistable), their pushes and pops removed from the loops; None when none
    qualifies."""
    pairs = hoistable(loop, storage, apart)
    if not pairs:
        return None
    for push, pop in pairs:
        loop.fwd.body.stmts.remove(push)
        loop.bwd.body.stmts.remove(pop)
    elems = [push.value for push, _ in pairs]
    positive, _ = _runs(loop.count)
    kept = ir.Binary(">", ir.Ref(loop.count_var), ir.Const("0", ir.INT), ir.INT)
    what = ", ".join(_text(e) for e in elems)
    loc = pairs[0][0].loc
    return ([ir.Comment(f"{what}: one value for the whole loop (no backward iteration "
                        "reads the values in between)", loc),
             ir.If(X.clone(positive), ir.Block([push for push, _ in pairs]), None, loc)],
            [ir.Comment(f"{what}: the value from before the loop", loc),
             ir.If(kept, ir.Block([pop for _, pop in reversed(pairs)]), None, loc)], elems)


def hoistable(loop, storage, apart):
    """[(push, pop)] of the elements the loops push and pop in every iteration at one
    place that one push before the forward loop and one pop after the backward loop can
    save instead, in the order of the pushes; the loops are left as they are.

    An element qualifies when both loops change nothing its place depends on, its push and
    its pop are each the only one of it and stand at the top of their loop's body (every
    iteration makes them), nothing in the forward body may write it before its push, and
    nothing in the backward body may read it (apart(a, b): a and b never the same element
    inside the loop). Both bodies call nothing but math functions."""
    fwd_body, bwd_body = loop.fwd.body.stmts, loop.bwd.body.stmts
    pushes = [st for st in fwd_body if isinstance(st, ir.Push) and ir.is_lvalue(st.value)
              and not isinstance(st.value, ir.Ref)]
    if not pushes or not _plain(fwd_body) or not _plain(bwd_body):
        return []
    changed_f = _set_in(fwd_body) | _set_in(loop.fwd.init) | {loop.var}
    changed_b = _set_in(bwd_body) | {loop.var}
    if loop.count_var in changed_b:
        return []
    ints_f, ints_b = stores_no_integer(fwd_body), stores_no_integer(bwd_body)
    pairs = []
    for push in pushes:
        elem = push.value
        if not (elem.type.resolved().is_float or elem.type.resolved().is_int):
            continue
        pops = [st for st in ir.stmts_walk(bwd_body)
                if isinstance(st, ir.Pop) and same_text(st.target, elem)]
        if len(pops) != 1 or pops[0] not in bwd_body or pops[0].keep or \
                sum(isinstance(st, ir.Push) and same_text(st.value, elem)
                    for st in ir.stmts_walk(fwd_body)) != 1:
            continue
        key = storage(elem)
        if key is UNKNOWN or not fixed_place(elem, changed_f, ints_f) or \
                not fixed_place(elem, changed_b, ints_b):
            continue
        ahead = fwd_body[:fwd_body.index(push)]
        if all(_misses(lv, elem, key, storage, apart) for lv in _writes(ahead)) and \
                all(_misses(lv, elem, key, storage, apart)
                    for lv in _reads(bwd_body, pops[0])):
            pairs.append((push, pops[0]))
    return pairs


def _set_in(stmts):
    """Variables the statements assign or pop."""
    return assigned_syms(stmts) | {st.target.sym for st in ir.stmts_walk(stmts)
                                   if isinstance(st, ir.Pop) and isinstance(st.target, ir.Ref)}


def _writes(stmts):
    """The lvalues the statements (nested ones included) write."""
    return [st.lhs if isinstance(st, ir.Assign) else st.target for st in ir.stmts_walk(stmts)
            if isinstance(st, ir.Assign) or isinstance(st, ir.Pop)]


def _reads(stmts, skip):
    """The lvalues the statements (nested ones included) read, but statement skip: all
    those they evaluate except the memory an assignment or a pop writes, and rows of an
    array of arrays (`a[i]` of `a[i][j]`: an address, not a value read)."""
    out = []
    for st in ir.stmts_walk(stmts):
        if st is skip:
            continue
        written = st.lhs if isinstance(st, ir.Assign) else \
            st.target if isinstance(st, ir.Pop) else None
        out += [lv for e in ir.stmt_exprs(st) for lv in ir.lvalues(e)
                if lv is not written and not (lv.type is not None and
                                              isinstance(lv.type.resolved(), ir.Arr))]
    return out


def _misses(lv, elem, key, storage, apart):
    """True when lvalue lv never names elem's memory inside the loop."""
    if getattr(ir.root_symbol(lv), "primal", None) is not None:
        return True         # an adjoint
    k = storage(lv)
    return k is not UNKNOWN and (k != key or apart(lv, elem))


def elements_apart(a, b, calc, loops):
    """True when lvalues a and b never name the same element while the counted `loops`
    (var, first, last) run: elements of one base whose indices, as polynomials, always
    differ, or elements of rows of an array of arrays that are such elements."""
    if not (isinstance(a, ir.Index) and isinstance(b, ir.Index)):
        return False
    if same_text(a.base, b.base):
        try:
            d = calc.to_poly(a.index, loops) - calc.to_poly(b.index, loops)
        except NotPolynomial:
            return False
        return _never_zero(d, loops)
    return isinstance(a.base.type.resolved(), ir.Arr) and \
        isinstance(b.base.type.resolved(), ir.Arr) and elements_apart(a.base, b.base, calc,
                                                                       loops)


def _never_zero(d, loops):
    """True when integer polynomial d is not 0 wherever the loops run: d >= 1 or d <= -1,
    where each loop running (last - first >= 0) may lend its bound."""
    one = Poly.const(1)
    for p in (d - one, -d - one):
        if nonneg_within(p, loops) or any(nonneg_within(p - (last - first), loops)
                                          for _, first, last in loops):
            return True
    return False


def _with_copies(loop, copies):
    """The loop and each copy of its two sweeps made together, copies of copies included
    (a checkpointed loop inside a checkpointed step)."""
    found, k = [loop], 0
    while k < len(found):
        each = found[k]
        for made in copies:
            if id(each.fwd) in made and id(each.bwd) in made:
                found.append(BlockLoop(each.source, made[id(each.fwd)], made[id(each.bwd)],
                                       each.var, each.start, each.count, each.count_var,
                                       each.stride))
        k += 1
    return found


def _pushed(loop, stack_ops):
    push = stack_ops.single(loop.fwd.body.stmts, ir.Push)
    return push.value if push is not None else None


class StackOps:
    """How many pushes and pops (none, one, more) each compound statement of the sweeps
    holds at any depth, read once per statement while the sweeps stay as they are: each
    loop of a nest asks about its body, which holds the loops inside it."""

    def __init__(self):
        self.inside = {}        # id(compound statement) -> 0, 1 or 2 (more than one)

    def forget(self):
        self.inside = {}

    def single(self, body, kind):
        """The one statement of that kind at the top level of body, when the body holds
        no other push or pop at any depth; None otherwise."""
        if self.in_list(body) != 1:
            return None
        return next((s for s in body if isinstance(s, kind)), None)

    def in_list(self, stmts):
        return min(2, sum(self.of(s) for s in stmts))

    def of(self, s):
        if isinstance(s, (ir.Push, ir.Pop)):
            return 1
        if not isinstance(s, ir.COMPOUND):
            return 0
        if id(s) not in self.inside:
            self.inside[id(s)] = self.in_list(ir.statements_inside(s))
        return self.inside[id(s)]


def _consecutive(elem, var, changed, ints_kept):
    """True when elem is x[var + c]: x a variable the loop does not change, c an invariant
    integer, so that iterations touch consecutive elements."""
    if not (isinstance(elem, ir.Index) and isinstance(elem.base, ir.Ref)
            and elem.base.sym not in changed):
        return False
    if not isinstance(elem.base.sym.type.resolved(), (ir.Ptr, ir.Arr)):
        return False
    return _coefficient(elem.index, var, changed, ints_kept) == 1


def _coefficient(e, var, changed, ints_kept):
    """The multiple of var in integer expression e when e is var times it plus an
    invariant (sums and differences only); None otherwise."""
    if isinstance(e, ir.Ref) and e.sym is var:
        return 1
    if isinstance(e, ir.Binary) and e.op in "+-":
        a = _coefficient(e.left, var, changed, ints_kept)
        b = _coefficient(e.right, var, changed, ints_kept)
        if a is None or b is None:
            return None
        return a + b if e.op == "+" else a - b
    if isinstance(e, ir.Cast) and e.type.resolved().is_int:
        return _coefficient(e.arg, var, changed, ints_kept)
    return 0 if invariant_index(e, changed, ints_kept) else None


def _plain(body):
    """Statements with no effect on memory but their assignments: no call but to a math
    function, nothing emitted from a template, no return from the function."""
    for st in ir.stmts_walk(body):
        if isinstance(st, (ir.Raw, ir.Return)):
            return False
        for e in ir.stmt_exprs(st):
            for sub in ir.walk(e):
                if isinstance(sub, ir.Call):
                    lib = LIBRARY_FUNCTIONS.get(sub.func)
                    if lib is None or lib.kind != "math":
                        return False
                elif isinstance(sub, ir.AddrOf):
                    return False
    return True


def _touched_only_after(body, mark, elem, key, storage, writes_only):
    """True when every access to memory that may be elem's (every write, with writes_only)
    is elem itself, made by a top-level statement after mark."""
    after = False
    for top in body:
        if top is mark:
            after = True
            continue
        for st in ir.stmts_walk([top]):
            for lv in _accesses(st, writes_only):
                if getattr(ir.root_symbol(lv), "primal", None) is not None:
                    continue        # an adjoint: never the primal memory pushed
                k = storage(lv)
                if k is UNKNOWN or k == key:
                    if not (after and same_text(lv, elem)):
                        return False
    return True


def _accesses(st, writes_only):
    """The lvalues a statement writes, or (writes_only False) reads and writes."""
    if isinstance(st, ir.Assign):
        if writes_only:
            return [st.lhs]
    elif writes_only:
        return []
    return [sub for e in ir.stmt_exprs(st) for sub in ir.lvalues(e)]


def _occurrences(fns):
    """How many times each statement object appears in the functions, by id."""
    seen = {}
    for fn in fns:
        for s in ir.stmts_walk(fn.body):
            seen[id(s)] = seen.get(id(s), 0) + 1
    return seen


def _text(e):
    from adgen.ir.c_text import expr_c
    return expr_c(e)
