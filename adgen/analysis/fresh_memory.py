"""Memory a function allocates itself: the local pointers that only ever hold such blocks,
and the pointer an assignment writes through. What is written there is newer than the
call, so never the caller's (driver.Context.old_memory_writes)."""
from adgen import ir
from adgen.rules import ALLOCATION


def fresh_pointers(f):
    """f's local pointer variables that only ever hold blocks f allocates: every
    assignment to one is a malloc, calloc or realloc, and its address is not taken."""
    assigned, taken = {}, set()
    for s in ir.stmts_walk(f.body.stmts):
        if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref):
            rhs = s.rhs.arg if isinstance(s.rhs, ir.Cast) else s.rhs
            fresh = isinstance(rhs, ir.Call) and rhs.func in ALLOCATION and rhs.func != "free"
            assigned[s.lhs.sym] = assigned.get(s.lhs.sym, True) and fresh
        for e in ir.stmt_exprs(s):
            taken |= {x.arg.sym for x in ir.walk(e)
                      if isinstance(x, ir.AddrOf) and isinstance(x.arg, ir.Ref)}
    return {sym for sym, only in assigned.items() if only and sym in f.locals and
            sym not in taken and sym.type.resolved().is_pointer}


def first_deref_pointer(lhs):
    """The pointer variable whose target lvalue lhs lies in, where lhs is reached through
    one (`p->x`, `p[i].y`, `*p`), or None (a variable, a local array's element, or a
    pointer from another expression)."""
    e = lhs
    while True:
        if isinstance(e, ir.Member) and not e.arrow:
            e = e.base
        elif isinstance(e, ir.Index) and e.base.type is not None and \
                e.base.type.resolved().is_array:
            e = e.base
        else:
            break
    ptr = e.base if isinstance(e, (ir.Index, ir.Member)) else \
        e.ptr if isinstance(e, ir.Deref) else None
    return ptr.sym if isinstance(ptr, ir.Ref) else None
