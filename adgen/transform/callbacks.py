"""Functions passed as arguments (callbacks): one copy of the callee per function passed.

An integrator or a solver takes the function it works on as a parameter:

    static void rk4(double (*rhs)(double, double), double t, double *y, double h) { ...
        k1 = rhs(t, *y); ... }
    ... rk4(decay, t, &y, h); ...

A call through a parameter cannot be differentiated as it is: which function runs, and so
what it reads and writes and what its derivative is, is known only at the call of rk4.
Where the function passed there is a named function, the call of rk4 is given a copy of it,
`rk4_decay`, without that parameter and calling decay directly; a copy that passes the
parameter on hands the same function to the functions it calls, which are copied in turn.
After this no call goes through a parameter, and the rest of adgen sees plain calls.

Refused, with the line: a function pointer used any other way (stored, compared, passed
where the function passed is not known: by a head), and a function pointer parameter of a
head.
"""
from adgen import ir
from adgen.errors import AdgenError
from adgen.transform.clone import copy_function

# copies made at most (a guard against a recursion that passes ever new functions)
MAX_SPECIALIZATIONS = 200


def specialize_callbacks(prog, roots):
    """Rewrite the functions reachable from roots so that no call passes a function or
    goes through a parameter; returns nothing (prog is changed in place)."""
    for name in roots:
        f = prog.functions[name]
        for p in f.params:
            if isinstance(p.type.resolved(), ir.FuncPtr):
                raise AdgenError(f"'{name}' takes a function as an argument ('{p.name}'): adgen "
                                 "differentiates the calls that pass it a named function; "
                                 "differentiate a function that makes such a call", p.loc)
    copies = {}         # (callee, ((parameter index, function), ...)) -> name of the copy
    todo, seen = list(roots), set()
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.add(name)
        f = prog.functions.get(name)
        if f is None or not f.has_body or getattr(f, "is_library", False):
            continue
        if getattr(f, "error", None) is not None:
            raise f.error
        for st in ir.stmts_walk(f.body.stmts):
            for e in _stmt_exprs(st):
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Call):
                        _specialize_call(prog, sub, copies, todo)
                        if sub.func in prog.functions:
                            todo.append(sub.func)
                    elif _is_function_value(sub):
                        # (a call's function arguments are gone by now: see _specialize_call)
                        raise _misuse(sub)


def _stmt_exprs(st):
    return [e for e in ir.stmt_exprs(st) if e is not None]


def _is_function_value(e):
    """A function named as a value, or a function pointer parameter used as one."""
    if isinstance(e, ir.Const):
        return isinstance(e.type.resolved(), ir.FuncPtr)
    return isinstance(e, ir.Ref) and isinstance(e.sym.type.resolved(), ir.FuncPtr)


def _misuse(e):
    name = e.text if isinstance(e, ir.Const) else e.sym.name
    return AdgenError(f"function pointer '{name}' used other than passed to a call or "
                      "called: not supported", e.loc)


def _specialize_call(prog, call, copies, todo):
    if getattr(call, "through", None) is not None:
        raise AdgenError(f"call through function pointer '{call.func}', which is not known "
                         "here (a function passing it on is differentiated only through the "
                         "calls that give it a named function)", call.loc)
    passed = tuple((k, a.text) for k, a in enumerate(call.args)
                   if isinstance(a, ir.Const) and isinstance(a.type.resolved(), ir.FuncPtr))
    g = prog.functions.get(call.func)
    if g is not None and getattr(g, "error", None) is not None:
        raise g.error       # a function whose text adgen could not read: that error first
    if g is not None:
        for k, (p, a) in enumerate(zip(g.params, call.args)):
            if isinstance(p.type.resolved(), ir.FuncPtr) and k not in dict(passed):
                raise AdgenError(f"the call of '{g.name}' passes its function pointer "
                                 f"parameter '{p.name}' something other than a named "
                                 "function: not supported", call.loc)
    if not passed:
        return
    if g is None or not g.has_body or getattr(g, "is_library", False):
        raise AdgenError(f"a function is passed to '{call.func}', which adgen has no body of",
                         call.loc)
    key = (g.name, passed)
    if key not in copies:
        if len(copies) >= MAX_SPECIALIZATIONS:
            raise AdgenError("too many copies of functions for the functions passed to them "
                             f"(more than {MAX_SPECIALIZATIONS})", call.loc)
        copies[key] = _make_copy(prog, g, dict(passed))
    call.func = copies[key]
    drop = {k for k, _ in passed}
    call.args = [a for k, a in enumerate(call.args) if k not in drop]
    todo.append(call.func)


def _make_copy(prog, g, passed):
    """A copy of g without the parameters given functions (passed: {index: function}),
    calling those functions directly and passing them on by name."""
    name = g.name + "_" + "_".join(passed[k] for k in sorted(passed))
    while name in prog.functions:
        name += "_"
    c = copy_function(prog, g, name)
    del c.clone_of              # a function of its own, not a call-site copy of g
    c.is_static = True          # defined in the output (the primal has no such function)
    c.link_name = None          # (a Fortran procedure's copy is not the compiled one)
    c.is_inline = False
    given = {c.params[k]: fname for k, fname in passed.items()}
    c.params = [p for p in c.params if p not in given]
    for st in ir.stmts_walk(c.body.stmts):
        for e in _stmt_exprs(st):
            for sub in ir.walk(e):
                if isinstance(sub, ir.Call):
                    through = getattr(sub, "through", None)
                    if through in given:
                        _check_arity(prog, sub, given[through])
                        sub.func = given[through]
                        sub.through = None
                    sub.args = [_function_const(given[a.sym], a.loc)
                                if isinstance(a, ir.Ref) and a.sym in given else a
                                for a in sub.args]
    prog.functions[name] = c
    return name


def _check_arity(prog, call, fname):
    """A call through a parameter passes what the function passed takes (a Fortran
    procedure with hidden arguments, such as an assumed-shape array's extents or an
    internal procedure's host variables, takes more)."""
    g = prog.functions.get(fname)
    if g is not None and g.has_body and len(g.params) != len(call.args):
        raise AdgenError(f"the call of '{call.func}' passes {len(call.args)} argument(s) "
                         f"to '{fname}', which takes {len(g.params)}: not supported",
                         call.loc)


def _function_const(fname, loc):
    return ir.Const(fname, ir.FuncPtr("pointer to function"), loc)
