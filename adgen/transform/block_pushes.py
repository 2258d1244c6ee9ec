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
"""
from adgen import ir
from adgen.analysis.loops import assigned_syms
from adgen.ir import exprs as X
from adgen.ir.exprs import same_text
from adgen.rules import LIBRARY_FUNCTIONS
from adgen.transform.split_sums import (UNKNOWN, invariant_index, replace_stmt,
                                        stores_no_integer)


class BlockLoop:
    """A loop counting up by one whose sweeps may push and pop one block: the primal
    loop, the forward loop, the backward loop, the counter, its first value, the trip
    count before the forward loop (`n > 0 ? n : 0`, of values the loop does not change)
    and the variable that holds it before the backward loop."""

    def __init__(self, source, fwd, bwd, var, start, count, count_var):
        self.source, self.fwd, self.bwd = source, fwd, bwd
        self.var, self.start, self.count, self.count_var = var, start, count, count_var


def block_pushes(loop, storage, stack_ops):
    """(statements before the forward loop, statements before the backward loop) that push
    and pop as one block what the loops push and pop one element at a time, the loops'
    own pushes and pops removed; None (nothing changed) when they do not qualify.

    storage(lvalue) is a key of the memory an lvalue names (see split_sums); stack_ops the
    StackOps of the sweeps."""
    fwd_body, bwd_body = loop.fwd.body.stmts, loop.bwd.body.stmts
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
    count = loop.count
    if isinstance(count, ir.Cond) and X.int_value(count.other) == 0:
        positive, count = count.test, count.then        # n > 0 ? n : 0
    else:
        positive = ir.Binary(">", count, zero, ir.INT)

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


def push_blocks(loops, fns, storage, copies=()):
    """Make block pushes of the loops (BlockLoop) that qualify, in the finished functions
    fns, and of their copies (`copies`: {id(statement): its copy} for each copy of a
    stretch's sweeps, see FuncGen.copy_sweeps). A loop whose two sweeps are not each
    found once there is left as it is. Returns (loop, element pushed) for each loop
    changed at least once."""
    done = []
    seen = _occurrences(fns)
    stack_ops = StackOps()
    for loop in loops:
        elem = _pushed(loop, stack_ops)
        changed = False
        for each in _with_copies(loop, copies):
            if seen.get(id(each.fwd)) != 1 or seen.get(id(each.bwd)) != 1:
                continue
            made = block_pushes(each, storage, stack_ops)
            if made is None:
                continue
            stack_ops.forget()      # the loops around lost a push and a pop
            for stmt, before in ((each.fwd, made[0]), (each.bwd, made[1])):
                for fn in fns:
                    if replace_stmt(fn.body, stmt, before + [stmt]):
                        break
            changed = True
        if changed:
            done.append((loop, elem))
    return done


def _with_copies(loop, copies):
    """The loop and each copy of its two sweeps made together, copies of copies included
    (a checkpointed loop inside a checkpointed step)."""
    found, k = [loop], 0
    while k < len(found):
        each = found[k]
        for made in copies:
            if id(each.fwd) in made and id(each.bwd) in made:
                found.append(BlockLoop(each.source, made[id(each.fwd)], made[id(each.bwd)],
                                       each.var, each.start, each.count, each.count_var))
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
