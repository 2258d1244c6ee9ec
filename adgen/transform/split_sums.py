"""Adjoint sums split in two partial sums.

The backward loop of a matrix-vector product adds one term per iteration to the same
adjoint: `xb[i] = xb[i] + a[k] * yb[j]` for every j. Without -ffast-math gcc keeps a
floating-point sum in its written order, so such a loop runs one dependent add at a time
and does not vectorize. The order in which contributions reach an adjoint is free (each
is a plain increment), so the backward loop is unrolled by two, each copy adds into its
own local partial sum, and the two sums reach the adjoint after the loop: gcc then
vectorizes the loop. Iterations still run in the same order; only the rounding of the
sum changes.

A loop qualifies when its body is straight-line code (assignments, pure math calls), each
adjoint it sums into is the same location in every iteration and is not otherwise read or
written there, and these sums are all the loop carries from one iteration to the next (gcc
12 vectorizes an in-order sum left beside them wrongly). An increment of memory that may be
the same location (another array's adjoint element, when the primal arrays may alias)
commutes with the deferred ones and is allowed; any other access to it is not. Primal
values the loop reads at one place and never writes are read once before it, as gcc cannot
tell that the adjoints the loop writes are not them.
"""
from adgen import ir
from adgen.analysis.loops import assigned_syms
from adgen.ir import exprs as X
from adgen.ir.exprs import same_text
from adgen.rules import LIBRARY_FUNCTIONS
from adgen.transform.common import increment, strip_const

PARTS = 2           # partial sums: as many copies of the loop body
MAX_BODY = 16       # statements of a loop body worth duplicating
UNKNOWN = object()  # storage that may be anything


def split_sums(loop, temp, storage):
    """(statements, sums): the statements that replace the backward loop
    `for (k = E; k >= c; k = k - 1)` (or `k > c`) and the adjoints whose sums they split;
    None when no sum of the loop can be split.

    temp(base, type) declares a local; storage(lvalue) is a key of the memory an lvalue
    names, ("adjoint" | "primal" | "temp", ...), equal keys for memory that may be the
    same, or UNKNOWN when it cannot tell."""
    shape = _counted_down(loop)
    if shape is None:
        return None
    k, bound_op, bound = shape
    body = [s for s in loop.body.stmts if not isinstance(s, ir.Comment)]
    if not body or len(body) > MAX_BODY or not all(_straight(s) for s in body):
        return None
    changed = assigned_syms(body) | {k}
    # a scalar the body only adds to stays in place: it is a sum, not a changed variable
    scalars = [st for st in body if isinstance(st.lhs, ir.Ref)]
    added_to = {st.lhs.sym for st in scalars} - \
        {st.lhs.sym for st in scalars if not _float_increment(st)}
    ints_kept = stores_no_integer(body)
    sums = []           # lvalues of the sums in the loop, in order of appearance
    for st in body:
        if _float_increment(st) and fixed_place(st.lhs, changed - added_to, ints_kept) and \
                not any(same_text(st.lhs, a) for a in sums):
            sums.append(st.lhs)
    keys = [storage(a) for a in sums]
    # values carried from one iteration to the next: floats that the body updates from
    # their old values, at the same place in every iteration
    carried = [st.lhs for st in body if st.lhs.type.resolved().is_float and
               any(same_text(sub, st.lhs) for sub in ir.walk(st.rhs)) and
               not _varies(st.lhs, changed)]
    if not sums or any(key is UNKNOWN or key[0] == "primal" or
                       not _only_incremented(a, key, body, storage)
                       for a, key in zip(sums, keys)) or \
            any(not any(same_text(c, a) for a in sums) for c in carried):
        # every value carried is a sum split, or nothing is split: gcc 12 vectorizes an
        # in-order sum over the two copies of the body wrongly (it adds some terms twice)
        return None
    sums = list(zip(sums, keys))
    parts = [(a, [temp(ir.root_symbol(a).name + "_sum", strip_const(a.type))
                  for _ in range(PARTS)]) for a, _ in sums]
    # primal values the loop reads at one place and does not change, read once before it:
    # gcc cannot tell that the adjoints the loop writes are other memory
    held = [(r, temp(_held_name(r), strip_const(r.type)))
            for r in _invariant_reads(body, changed, storage)]
    copies = []
    for n in range(PARTS):
        back = {k: X.sub(ir.Ref(k), ir.Const(str(n), ir.INT))} if n else {}
        copies += _with_sums(loop.body.stmts, parts, held, n, back)
    names = ", ".join(_text(a) for a, _ in parts)
    reads = "".join(f"; {_text(r)} read once" for r, _ in held)
    out = [ir.Comment(f"{names}: summed in {PARTS} parts, added after the loop{reads} (so that "
                      "the loop can be vectorized)", loop.loc)]
    out += [ir.Assign(ir.Ref(t), X.zero(t.type), loop.loc) for _, ts in parts for t in ts]
    out += loop.init
    for r, t in held:
        # read only if the loop runs (it may be out of bounds otherwise)
        out.append(ir.Assign(ir.Ref(t), ir.Cond(X.clone(loop.test), X.clone(r), X.zero(t.type),
                                                t.type), loop.loc))
    # PARTS iterations at a time while that many remain, then the last ones one by one
    left = ir.Binary(bound_op, ir.Ref(k), X.add(X.clone(bound), ir.Const(str(PARTS - 1), ir.INT)),
                     ir.INT)
    out.append(ir.For([], left,
                      [ir.Assign(ir.Ref(k), X.sub(ir.Ref(k), ir.Const(str(PARTS), ir.INT)))],
                      ir.Block(copies), loop.loc))
    out.append(ir.For([], loop.test, loop.step,
                      ir.Block(_with_sums(loop.body.stmts, parts, held, 0, {})), loop.loc))
    for a, ts in parts:
        total = ir.Ref(ts[0])
        for t in ts[1:]:
            total = ir.Binary("+", total, ir.Ref(t), t.type)
        out.append(ir.Assign(X.clone(a), X.add(X.clone(a), total), loop.loc))
    return out, [a for a, _ in sums]


def replace_stmt(stmts, old, new):
    """Replace statement old, found by identity in a statement tree, by the list new."""
    for k, st in enumerate(stmts):
        if st is old:
            stmts[k:k + 1] = new
            return True
        for sub in ir.nested_lists(st):
            if replace_stmt(sub, old, new):
                return True
    return False


def _counted_down(loop):
    """(k, op, c) for `for (k = E; k op c; k = k - 1)` with op >= or > and c a constant."""
    if not isinstance(loop, ir.For) or len(loop.init) != 1 or len(loop.step) != 1:
        return None
    init, step, test = loop.init[0], loop.step[0], loop.test
    if not (isinstance(init, ir.Assign) and isinstance(init.lhs, ir.Ref)):
        return None
    k = init.lhs.sym
    if not (isinstance(test, ir.Binary) and test.op in (">=", ">")
            and isinstance(test.left, ir.Ref) and test.left.sym is k
            and isinstance(test.right, ir.Const)):
        return None
    if not (isinstance(step, ir.Assign) and isinstance(step.lhs, ir.Ref) and step.lhs.sym is k
            and same_text(step.rhs, X.sub(ir.Ref(k), ir.Const("1", ir.INT)))):
        return None
    return k, test.op, test.right


def _straight(s):
    """An assignment of a scalar whose evaluation has no effect but its store."""
    if isinstance(s, ir.Comment):
        return True
    if not isinstance(s, ir.Assign):
        return False
    t = s.lhs.type.resolved()
    if not (t.is_float or t.is_int or t.is_pointer):
        return False        # a struct copy: memory the storage keys of its fields miss
    for e in (s.lhs, s.rhs):
        for sub in ir.walk(e):
            if isinstance(sub, ir.Call):
                lib = LIBRARY_FUNCTIONS.get(sub.func)
                if lib is None or lib.kind != "math":
                    return False
            elif isinstance(sub, (ir.AddrOf, ir.InitList)):
                return False
    return True


def _varies(a, changed):
    """True when lvalue a is seen to name other memory from one iteration to the next: a
    variable the loop changes takes part in finding its place. An lvalue that may stay in
    place (its indices read memory, say) does not vary."""
    return any(isinstance(sub, ir.Ref) and sub.sym in changed
               for e in ir.lvalue_chain(a) if isinstance(e, (ir.Index, ir.Deref))
               for sub in ir.walk(e.index if isinstance(e, ir.Index) else e.ptr))


def _float_increment(s):
    return _increment(s) is not None and s.lhs.type.resolved().is_float


def _increment(s):
    """(sign, rest) for an assignment `a = a + rest`, `a = rest + a` or `a = a - rest`."""
    return increment(s.lhs, s.rhs) if isinstance(s, ir.Assign) else None


def fixed_place(a, changed, ints_kept=False):
    """True when lvalue a names the same memory in every iteration: built from variables
    the loop leaves unchanged, integer arithmetic and constants, with no memory read but
    its own storage (and the integers invariant_index allows)."""
    *path, root = ir.lvalue_chain(a)
    return isinstance(root, ir.Ref) and root.sym not in changed and \
        all(isinstance(e, ir.Deref) or isinstance(e, ir.Member) and not e.arrow or
            isinstance(e, ir.Index) and invariant_index(e.index, changed, ints_kept)
            for e in path)


def stores_no_integer(stmts):
    """True when no statement (nested ones included) stores an integer to memory."""
    return not any(isinstance(st, ir.Assign) and not isinstance(st.lhs, ir.Ref) and
                   st.lhs.type.resolved().is_int for st in ir.stmts_walk(stmts))


def invariant_index(e, changed, ints_kept=False):
    """True when integer expression e has the same value in every iteration of a loop that
    assigns the variables changed: integer variables it leaves unchanged, constants and
    arithmetic, and, when ints_kept (the loop stores no integer to memory), integers read
    through pointers it leaves unchanged (`x[*n - 1]`, a Fortran dummy's value)."""
    if isinstance(e, ir.Ref):
        return e.sym not in changed and e.sym.type.resolved().is_int
    if isinstance(e, ir.Deref):
        return ints_kept and e.type.resolved().is_int and isinstance(e.ptr, ir.Ref) \
            and e.ptr.sym not in changed
    if isinstance(e, (ir.Const, ir.Binary, ir.Unary, ir.Cast)):
        return all(invariant_index(sub, changed, ints_kept) for sub in e.children())
    return False


def _only_incremented(a, key, body, storage):
    """True when no statement of the body touches memory that may be a's, but to add to it
    (a's own increments and those of lvalues that may share its memory)."""
    for s in body:
        if isinstance(s, ir.Comment):
            continue
        inc = _increment(s)
        if inc is not None:
            lhs, rest = s.lhs, inc[1]
            if not s.lhs.type.resolved().is_float and storage(lhs) in (key, UNKNOWN):
                return False    # an integer update of the same memory (a reinterpretation)
            exprs = [rest] + _index_parts(lhs)
        else:
            exprs = [s.lhs, s.rhs]
        for e in exprs:
            for sub in ir.lvalues(e):
                k = storage(sub)
                if k is UNKNOWN or k == key:
                    return False
    return True


def _index_parts(lv):
    """The expressions an lvalue reads to find its place (its indices)."""
    return [e.index for e in ir.lvalue_chain(lv) if isinstance(e, ir.Index)]


def _with_sums(stmts, parts, held, n, mapping):
    """A copy of the loop body where each split sum adds into its partial sum n and each
    held value is read from its variable, with the variables of mapping replaced."""
    out = []
    for s in stmts:
        s2 = X.clone_stmts(ir.Block([s])).stmts[0]
        if isinstance(s2, ir.Assign):
            for a, ts in parts:
                if same_text(s2.lhs, a) and _increment(s2) is not None:
                    s2 = ir.Assign(ir.Ref(ts[n]), _replace_text(s2.rhs, a, ir.Ref(ts[n])),
                                   s2.loc)
                    break
            for r, t in held:
                s2 = ir.Assign(s2.lhs, _replace_text(s2.rhs, r, ir.Ref(t)), s2.loc)
            if mapping:
                s2 = ir.Assign(_constants_out(X.substitute(s2.lhs, mapping)),
                               _constants_out(X.substitute(s2.rhs, mapping)), s2.loc)
        out.append(s2)
    return out


def _invariant_reads(body, changed, storage):
    """The primal floating-point values the body reads at one place that no statement of
    it writes."""
    writes = [storage(s.lhs) for s in body if isinstance(s, ir.Assign)]
    if UNKNOWN in writes:
        return []
    found = []
    for s in body:
        if not isinstance(s, ir.Assign):
            continue
        for e in [s.rhs] + _index_parts(s.lhs):
            for sub in ir.walk(e):
                if not isinstance(sub, (ir.Index, ir.Deref, ir.Member)) or \
                        not sub.type.resolved().is_float or not fixed_place(sub, changed):
                    continue
                key = storage(sub)
                if key is not UNKNOWN and key[0] == "primal" and key not in writes and \
                        not any(same_text(sub, r) for r in found):
                    found.append(sub)
    return found


def _held_name(r):
    """x_i for x[i]; x_value otherwise."""
    name = ir.root_symbol(r).name
    if isinstance(r, ir.Index) and isinstance(r.base, ir.Ref):
        if isinstance(r.index, ir.Ref):
            return f"{name}_{r.index.sym.name}"
        if isinstance(r.index, ir.Const) and r.index.text.isdigit():
            return f"{name}_{r.index.text}"
    return f"{name}_value"


def _constants_out(e):
    """e with integer constants moved out of sums: `i + (k - 1)` becomes `i + k - 1`, and
    `(k - 1) * 2` becomes `k * 2 - 2`. gcc then sees that the two copies of the body index
    neighbouring elements, which it must know to vectorize them."""
    if not isinstance(e, ir.Binary):
        return e
    left, right = _constants_out(e.left), _constants_out(e.right)
    e = ir.Binary(e.op, left, right, e.type, e.loc)
    if e.type is None or not e.type.resolved().is_int:
        return e
    if e.op in "+-" and isinstance(right, ir.Binary) and right.op in "+-" \
            and isinstance(right.right, ir.Const):
        # a + (x - c)  ->  (a + x) - c;   a - (x - c)  ->  (a - x) + c
        inner = ir.Binary(e.op, left, right.left, e.type, e.loc)
        flip = (e.op == "-") != (right.op == "-")
        return ir.Binary("-" if flip else "+", inner, right.right, e.type, e.loc)
    if e.op in "+-" and isinstance(right, ir.Const):
        # (x - 1) + 2  ->  x + 1
        return X.add(left, right) if e.op == "+" else X.sub(left, right)
    if e.op == "*" and isinstance(left, ir.Binary) and left.op in "+-" \
            and isinstance(left.right, ir.Const) and isinstance(right, ir.Const):
        c, s = X.int_value(left.right), X.int_value(right)
        if c is not None and s is not None:
            scaled = ir.Binary("*", left.left, right, e.type, e.loc)
            op = left.op if c * s >= 0 else "+" if left.op == "-" else "-"
            return ir.Binary(op, scaled, ir.Const(str(abs(c * s)), e.type), e.type, e.loc)
    return e


def _replace_text(e, old, new):
    """Copy of e with the sub-expressions that read as old replaced by new."""
    if same_text(e, old):
        return X.clone(new)
    return X.map_children(e, lambda sub: _replace_text(sub, old, new))


def _text(a):
    from adgen.ir.c_text import expr_c
    return expr_c(a)
