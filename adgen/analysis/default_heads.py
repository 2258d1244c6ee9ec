"""Which functions are heads when no --head names one: those with floating-point inputs
and outputs, arrays included (`double A[n][n]` read, `double y[n]` written), that no
function but `main` calls. Set-up code (writes numbers, reads none) and printing (reads,
writes none) are not heads.

What a function does with an array parameter is read from its statements, and from its
callees' for the arrays it passes them; a pointer copied anywhere else (a local walking
it, a library call) counts as read and written."""
from adgen import ir


def number_block(t):
    """The type of the numbers a pointer or array parameter of type t reaches, through
    its arrays of rows (`double A[n][n]`: double) and row pointers (`double **u`); None
    for another type."""
    t = t.resolved()
    if not isinstance(t, (ir.Ptr, ir.Arr)):
        return None
    elem = ir.pointee(t)
    while elem is not None and isinstance(elem.resolved(), (ir.Arr, ir.Ptr)):
        elem = ir.pointee(elem)
    return elem


def number_node(mem, p):
    """The memory node of the numbers pointer or array parameter p reaches (see
    number_block): its pointee, or for row pointers what its rows point to."""
    from adgen.analysis.activity import find
    node, elem = find(mem.pointee(mem.var(p))), ir.pointee(p.type.resolved())
    while isinstance(elem.resolved(), ir.Arr):
        elem = elem.resolved().elem
    while isinstance(elem.resolved(), ir.Ptr):
        node, elem = find(mem.pointee(node)), elem.resolved().target
    return node


def float_interface(prog, f):
    """(has a floating-point input, has a floating-point output) of function f."""
    inputs, outputs = False, f.ret.resolved().is_float
    for k, p in enumerate(f.params):
        t = p.type.resolved()
        if t.is_float:
            inputs = True
            continue
        elem = number_block(t)
        if elem is None or not elem.resolved().is_float:
            continue
        read, written = param_use(prog, f, k, set())
        inputs |= read
        outputs |= written and not elem.const
    return inputs, outputs


def param_use(prog, f, k, seen):
    """(read, written): whether f, or a function f passes it to, reads and writes the
    numbers its k-th parameter points to."""
    if (f.name, k) in seen or not f.has_body:
        return (False, False) if (f.name, k) in seen else (True, True)
    seen.add((f.name, k))
    p = f.params[k]
    read = written = False
    for s in ir.stmts_walk(f.body.stmts):
        roots = []
        if isinstance(s, ir.Assign) and ir.root_symbol(s.lhs) is p and not isinstance(s.lhs, ir.Ref):
            written = True
            roots.append(s.lhs)
        for e in ir.stmt_exprs(s):
            r, w = _uses_in(prog, e, p, roots, seen)
            read, written = read or r, written or w
        if read and written:
            break
    return read, written


def _uses_in(prog, e, p, written_lvalues, seen):
    """(read, written) of p's numbers by expression e; written_lvalues are the lvalues of
    e's statement that are assignments' targets (their own reading does not count)."""
    read = written = False

    def visit(x, under):
        nonlocal read, written
        if any(x is w for w in written_lvalues):
            if isinstance(x, ir.Index):
                visit(x.index, None)
                visit_base(x.base)
            elif isinstance(x, ir.Member):
                visit_base(x.base)
            elif isinstance(x, ir.Deref):
                visit_base(x.ptr)
            return
        if isinstance(x, ir.AddrOf) and ir.root_symbol(x.arg) is p:
            read = written = True       # &p[i]: anything may be done through it
            return
        if isinstance(x, ir.Ref) and x.sym is p:
            if under == "element":
                read = True
            else:                       # the pointer itself goes somewhere: anything
                read = written = True
            return
        if isinstance(x, ir.Call) and x.func in prog.functions and \
                prog.functions[x.func].has_body and \
                not getattr(prog.functions[x.func], "is_library", False):
            g = prog.functions[x.func]
            for j, a in enumerate(x.args):
                if isinstance(a, ir.Ref) and a.sym is p and j < len(g.params):
                    r, w = param_use(prog, g, j, seen)
                    read, written = read or r, written or w
                else:
                    visit(a, None)
            return
        if isinstance(x, ir.Index):
            visit(x.base, "element")
            visit(x.index, None)
            return
        if isinstance(x, ir.Member):
            visit(x.base, "element")
            return
        if isinstance(x, ir.Deref):
            visit(x.ptr, "element")
            return
        for c in x.children():
            visit(c, None)

    def visit_base(b):
        # the target's base: an index's own index is read; p itself is the written root
        while isinstance(b, (ir.Index, ir.Member, ir.Deref)):
            if isinstance(b, ir.Index):
                visit(b.index, None)
                b = b.base
            else:
                b = b.base if isinstance(b, ir.Member) else b.ptr
        if not (isinstance(b, ir.Ref) and b.sym is p):
            visit(b, None)

    visit(e, None)
    return read, written
