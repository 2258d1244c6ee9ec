"""The call graph: which functions of the program a function calls, and which it reaches."""
from adgen import ir
from adgen.analysis.loops import kept_while_fixed


def callees(prog, f):
    # read once per function while the bodies are fixed (each call site of a transform asks)
    return list(kept_while_fixed("callees", (prog, f), None, lambda: _callees(prog, f)))


def _callees(prog, f):
    out = []
    for s in ir.stmts_walk(f.body.stmts):
        for e in ir.stmt_exprs(s):
            for sub in ir.walk(e):
                if isinstance(sub, ir.Call) and sub.func in prog.functions and \
                        not getattr(prog.functions[sub.func], "is_library", False) and \
                        sub.func not in out:
                    out.append(sub.func)
    return tuple(out)


def reachable_statements(prog, name):
    """Every statement of function name and of the functions it calls, nested ones
    included."""
    for n in reachable(prog, [name]):
        g = prog.functions[n]
        if g.has_body:
            yield from ir.stmts_walk(g.body.stmts)


def reachable(prog, roots):
    return list(kept_while_fixed("reachable", (prog,), tuple(roots),
                                 lambda: tuple(_reachable(prog, roots))))


def _reachable(prog, roots):
    seen, todo = [], list(roots)
    while todo:
        n = todo.pop(0)
        if n in seen:
            continue
        seen.append(n)
        f = prog.functions[n]
        if getattr(f, "error", None) is not None:
            raise f.error
        if f.has_body:
            todo += callees(prog, f)
    return seen
