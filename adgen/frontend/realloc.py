"""realloc as the statements it equals: a new block, the elements both blocks hold copied
into it, the old block freed.

The derivative code then needs nothing but what malloc, a copy loop and free already get:
the new block's shadow, the copy's adjoint, the old block kept until the backward sweep.
What realloc copies depends on the old block's length, which C does not tell, so each
pointer variable involved (the one reallocated, the one receiving the result, pointer
copies between them) gets a hidden count of the elements its block holds, set wherever the
variable is: by malloc, calloc, realloc, NULL or another such variable. Any other way of
setting it is refused, naming the variable.
"""
from adgen import ir
from adgen.errors import AdgenError


def lower_realloc(f, hidden_local):
    """Rewrites every `p = realloc(q, bytes)` of function f (hidden_local(base, type,
    loc) makes a local of its own)."""
    calls = [(st, e) for st in ir.stmts_walk(f.body.stmts) for top in ir.stmt_exprs(st)
             for e in ir.walk(top) if isinstance(e, ir.Call) and e.func == "realloc"]
    if not calls:
        return
    tracked = set()
    for st, call in calls:
        if not (isinstance(st, ir.Assign) and _allocation(st.rhs) is call and
                isinstance(st.lhs, ir.Ref)):
            raise AdgenError("realloc is supported as `p = realloc(q, bytes)` with p a "
                             "pointer variable, the result assigned as it is", call.loc)
        old = _stripped(call.args[0])
        if not isinstance(old, ir.Ref) or old.sym.kind not in ("local", "temp"):
            raise AdgenError("realloc of a block that is not held by a local pointer "
                             "variable: adgen cannot tell how many elements it holds",
                             call.loc)
        tracked |= {old.sym, st.lhs.sym}
    grown = True
    while grown:            # pointer copies between such variables are such variables
        grown = False
        for st in ir.stmts_walk(f.body.stmts):
            if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and \
                    isinstance(_stripped(st.rhs), ir.Ref):
                pair = {st.lhs.sym, _stripped(st.rhs).sym}
                if pair & tracked and not pair <= tracked:
                    tracked |= pair
                    grown = True
    taken = {e.arg.sym for st in ir.stmts_walk(f.body.stmts) for top in ir.stmt_exprs(st)
             for e in ir.walk(top) if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Ref)}
    counts = {}
    for sym in sorted(tracked, key=lambda s: s.name):
        if sym in taken:
            # a callee given &p could set it to a block of a length adgen does not see
            raise AdgenError(f"'{sym.name}' holds a block that realloc grows and its address "
                             "is taken: adgen cannot tell how many elements the block holds",
                             sym.loc)
        if sym.kind not in ("local", "temp") or not isinstance(sym.type.resolved(), ir.Ptr):
            raise AdgenError(f"'{sym.name}' shares a block that realloc grows and is not a "
                             "local pointer variable: adgen cannot tell how many elements "
                             "the block holds", sym.loc)
        counts[sym] = hidden_local(f"{sym.name}_count", ir.LONG, sym.loc)
    f.body.stmts = _rewrite(f.body.stmts, counts, hidden_local)


def _stripped(e):
    while isinstance(e, ir.Cast):
        e = e.arg
    return e


def _allocation(e):
    e = _stripped(e)
    return e if isinstance(e, ir.Call) and e.func in ("malloc", "calloc", "realloc") else None


def _is_null(e):
    e = _stripped(e)
    return isinstance(e, ir.Const) and e.text in ("0", "NULL", "((void *)0)")


def _element_count(nbytes, elem):
    """nbytes / sizeof(elem), the sizeof left out where nbytes is a product with it."""
    if isinstance(nbytes, ir.SizeOf) and isinstance(nbytes.of, ir.Type) and \
            nbytes.of.resolved() == elem.resolved():
        return ir.Const("1", ir.LONG)
    if isinstance(nbytes, ir.Binary) and nbytes.op == "*":
        for mine, other in ((nbytes.left, nbytes.right), (nbytes.right, nbytes.left)):
            if isinstance(mine, ir.SizeOf) and isinstance(mine.of, ir.Type) and \
                    mine.of.resolved() == elem.resolved():
                return ir.Cast(ir.LONG, other)
    return ir.Cast(ir.LONG, ir.Binary("/", nbytes, ir.SizeOf(elem), ir.SIZE_T))


def _rewrite(stmts, counts, hidden_local):
    out = []
    for st in stmts:
        for inner in ir.nested_lists(st):
            inner[:] = _rewrite(inner, counts, hidden_local)
        if not (isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and
                st.lhs.sym in counts):
            out.append(st)
            continue
        sym, loc = st.lhs.sym, st.loc
        elem = sym.type.resolved().target
        count = ir.Ref(counts[sym], loc)
        rhs, call = _stripped(st.rhs), _allocation(st.rhs)
        if call is not None and call.func == "realloc":
            out += _reallocated(st, call, elem, counts, hidden_local)
            continue
        if call is not None and call.func == "malloc":
            size = _element_count(call.args[0], elem)
        elif call is not None:      # calloc(n, size)
            size = ir.Binary("*", ir.Cast(ir.LONG, call.args[0]),
                             _element_count(call.args[1], elem), ir.LONG)
        elif _is_null(rhs):
            size = ir.Const("0", ir.LONG)
        elif isinstance(rhs, ir.Ref) and rhs.sym in counts:
            size = ir.Ref(counts[rhs.sym], loc)
        else:
            raise AdgenError(f"'{sym.name}' holds a block that realloc grows and is set "
                             "otherwise than by malloc, calloc, realloc, NULL or another "
                             "such pointer: adgen cannot tell how many elements it holds",
                             loc)
        out += [st, ir.Assign(count, size, loc)]
    return out


def _reallocated(st, call, elem, counts, hidden_local):
    """`p = realloc(q, bytes)` as: a new block of bytes, the elements of q it can hold
    copied, q freed, p set to the new block; p's count set. Where no new block can be had,
    p is NULL, its count 0, and q stays as it was."""
    loc, sym = st.loc, st.lhs.sym
    old = _stripped(call.args[0]).sym
    block = hidden_local(f"{sym.name}_grown", ir.with_const(sym.type, False), loc)
    size = hidden_local(f"{sym.name}_size", ir.LONG, loc)
    i = hidden_local("realloc_i", ir.INT, loc)
    new_count, old_count = ir.Ref(size, loc), ir.Ref(counts[old], loc)
    kept = ir.Cond(ir.Binary("<", old_count, new_count, ir.INT, loc), old_count,
                   ir.Ref(size, loc), ir.LONG, loc)
    copy = ir.For([ir.Assign(ir.Ref(i, loc), ir.Const("0", ir.INT), loc)],
                  ir.Binary("<", ir.Ref(i, loc), kept, ir.INT, loc),
                  [ir.Assign(ir.Ref(i, loc), ir.Binary("+", ir.Ref(i, loc),
                                                       ir.Const("1", ir.INT), ir.INT), loc)],
                  ir.Block([ir.Assign(ir.Index(ir.Ref(block, loc), ir.Ref(i, loc), elem, loc),
                                      ir.Index(ir.Ref(old, loc), ir.Ref(i, loc), elem, loc),
                                      loc)], loc), loc)
    malloc = ir.Cast(block.type, ir.Call("malloc", [call.args[1]], ir.Ptr(ir.VOID), loc), loc)
    # realloc failing returns NULL and leaves the old block as it was (the program may
    # still free it or go on with it)
    moved = ir.If(ir.Ref(block, loc), ir.Block([
        copy, ir.ExprStmt(ir.Call("free", [ir.Ref(old, loc)], ir.VOID, loc), loc)], loc),
        ir.Block([ir.Assign(new_count, ir.Const("0", ir.LONG), loc)], loc), loc)
    return [ir.Assign(new_count, _element_count(call.args[1], elem), loc),
            ir.Assign(ir.Ref(block, loc), malloc, loc), moved,
            ir.Assign(st.lhs, ir.Ref(block, loc), loc),
            ir.Assign(ir.Ref(counts[sym], loc), ir.Ref(size, loc), loc)]
