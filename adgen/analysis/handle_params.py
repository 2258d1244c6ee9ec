"""Pointer parameters through which a function reaches one variable of its caller during
the call, and nothing more: Fortran's scalars passed by reference, as f2c writes them
(`gefa_(w, &c__20, n, ipvt, &info)`, the routine setting `*info = 0` first).

Such a parameter p is used only as `*p` (or `p[0]`), or handed on as it is to a parameter
of the same kind of another function: the callee keeps no pointer to the variable, so
what it does to it is what it does through p, and can be read off its body: whether each
call sets the variable before reading it (SET), may read it first (READ), or neither.
The caller's variable then needs no address of its own beyond the call: a static local of
the caller whose every path sets it first, by assignments or through such calls, keeps
nothing from one call to the next (transform/automatic_statics.py)."""
from adgen import ir
from adgen.analysis.first_access import READ, SET, first_access


def handle_param(prog, h, k, seen=()):
    """Whether the k-th parameter of function h (a pointer to a number) is used only as
    `*p`, `p[0]`, or handed as it is to a parameter of the same kind."""
    if not h.has_body or getattr(h, "error", None) is not None or k >= len(h.params) or \
            h.name in seen:
        return False
    p = h.params[k]
    t = p.type.resolved()
    if not isinstance(t, ir.Ptr) or not isinstance(ir.pointee(t).resolved(), ir.Prim):
        return False
    seen = (*seen, h.name)
    return all(_only_reached_through(prog, e, p, seen)
               for st in ir.stmts_walk(h.body.stmts) for e in ir.stmt_exprs(st))


def _only_reached_through(prog, e, p, seen):
    """Whether each mention of p in e is `*p`, `p[0]` or an argument handed to a handle
    parameter."""
    if _reaches(e, p):
        return True
    if isinstance(e, ir.Ref):
        return e.sym is not p
    if isinstance(e, ir.Call):
        callee = prog.functions.get(e.func)
        for j, a in enumerate(e.args):
            if _is(a, p):
                if callee is None or not handle_param(prog, callee, j, seen):
                    return False
            elif not _only_reached_through(prog, a, p, seen):
                return False
        return True
    return all(_only_reached_through(prog, sub, p, seen) for sub in e.children() or ())


def _is(a, p):
    """a is the parameter p itself (handed on as it is)."""
    return isinstance(a, ir.Ref) and a.sym is p


def _reaches(e, p):
    """e is `*p` or `p[0]`."""
    if isinstance(e, ir.Deref):
        return isinstance(e.ptr, ir.Ref) and e.ptr.sym is p
    return isinstance(e, ir.Index) and isinstance(e.base, ir.Ref) and e.base.sym is p and \
        isinstance(e.index, ir.Const) and e.index.text in ("0", "0L")


def handle_access(prog, h, k, seen=()):
    """SET when every run of h sets what its handle parameter k points to before reading
    it, READ when one may read it first, None when none does either (k a handle_param)."""
    if h.name in seen:
        return READ         # (a cycle of calls: taken as reading it)
    p = h.params[k]
    seen = (*seen, h.name)
    return first_access(h.body.stmts, lambda st: _sets(prog, st, p, seen),
                        lambda exprs: _reads(prog, exprs, p, seen))


def handle_writes(prog, h, k, seen=()):
    """Whether a run of h may write what its handle parameter k points to (through it, or
    through a callee it hands it to); a cycle of calls counts as writing."""
    if h.name in seen:
        return True
    p = h.params[k]
    seen = (*seen, h.name)
    for st in ir.stmts_walk(h.body.stmts):
        if isinstance(st, ir.Assign) and _reaches(st.lhs, p):
            return True
        for e in ir.stmt_exprs(st):
            passed = handed_on(prog, e, lambda a: _is(a, p))
            if any(handle_writes(prog, callee, j, seen) for _, j, callee in passed):
                return True
    return False


def handed_on(prog, e, is_target):
    """[(call, position, callee)] for the arguments a of calls in e for which is_target(a)
    holds and that go to a handle parameter of a function of the program."""
    out = []
    for x in ir.walk(e):
        if isinstance(x, ir.Call):
            callee = prog.functions.get(x.func)
            for j, a in enumerate(x.args):
                if is_target(a) and callee is not None and handle_param(prog, callee, j):
                    out.append((x, j, callee))
    return out


def _reads(prog, exprs, p, seen):
    for e in exprs:
        if any(_reaches(x, p) for x in ir.walk(e)):
            return True
        passed = handed_on(prog, e, lambda a: _is(a, p))
        if any(handle_access(prog, callee, j, seen) == READ for _, j, callee in passed):
            return True
    return False


def _sets(prog, st, p, seen):
    if isinstance(st, ir.Assign) and _reaches(st.lhs, p):
        return not _reads(prog, [st.rhs], p, seen)
    if isinstance(st, ir.ExprStmt) and isinstance(st.expr, ir.Call):
        call = st.expr
        passed = handed_on(prog, call, lambda a: _is(a, p))
        others = [a for a in call.args if not _is(a, p)]
        return any(x is call and handle_access(prog, callee, j, seen) == SET
                   for x, j, callee in passed) and not _reads(prog, others, p, seen)
    return False
