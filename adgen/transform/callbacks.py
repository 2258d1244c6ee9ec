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

A choice of functions passed (`dense(..., k % 2 ? relu : gelu)`) is a choice of calls,
`if (k % 2) dense(..., relu); else dense(..., gelu);`. A null pointer passed for an
optional function (`dense(..., NULL)`, the callee testing `f ? f(v) : v`) gives a copy in
which the tests of that parameter are decided and the calls through it are gone.

Refused, with the line: a function pointer used any other way (stored, compared, passed
where the function passed is not known: by a head), a call through a parameter given NULL
that no test of it keeps from running, and a function pointer parameter of a head.
"""
from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
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
        _choices_as_branches(f.body.stmts)
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
    g = prog.functions.get(call.func)
    passed = tuple((k, a.text) for k, a in enumerate(call.args)
                   if isinstance(a, ir.Const) and isinstance(a.type.resolved(), ir.FuncPtr))
    if g is not None:       # NULL for a function pointer parameter: an optional function
        passed += tuple((k, None) for k, (p, a) in enumerate(zip(g.params, call.args))
                        if isinstance(p.type.resolved(), ir.FuncPtr) and X.is_null(a))
        passed = tuple(sorted(passed))
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
    name = g.name + "_" + "_".join(passed[k] or "null" for k in sorted(passed))
    while name in prog.functions:
        name += "_"
    c = copy_function(prog, g, name)
    del c.clone_of              # a function of its own, not a call-site copy of g
    c.is_static = True          # defined in the output (the primal has no such function)
    c.link_name = None          # (a Fortran procedure's copy is not the compiled one)
    c.is_inline = False
    given = {c.params[k]: fname for k, fname in passed.items()}
    c.params = [p for p in c.params if p not in given]
    for p, fname in given.items():
        _tests_decided(c, p, fname is None, g.name)
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
                                if isinstance(a, ir.Ref) and a.sym in given and given[a.sym]
                                else X.null(a.sym.type, a.loc)
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


def _choices_as_branches(stmts):
    """Each statement of stmts (nested ones too) whose call passes a choice of functions,
    `g(x, c ? f1 : f2)`, made `if (c) g(x, f1); else g(x, f2);`."""
    for k, st in enumerate(stmts):
        for inner in ir.nested_lists(st):
            _choices_as_branches(inner)
        choice = next((a for e in _stmt_exprs(st) for sub in ir.walk(e)
                       if isinstance(sub, ir.Call) for a in sub.args
                       if _is_function_choice(a)), None)
        if choice is None:
            continue
        if not isinstance(st, (ir.ExprStmt, ir.Assign)) or X.has_call(choice.test):
            raise AdgenError("a choice of functions passed here: adgen makes it a choice "
                             "of calls in a statement of its own, `if (c) g(f1); else "
                             "g(f2);` (make it one, the test computed before)", choice.loc)
        branches = []
        for pick in (choice.then, choice.other):
            copies = {}
            made = X.clone_stmts(ir.Block([st]), copies).stmts[0]
            for e in _stmt_exprs(made):
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Call):
                        sub.args = [X.clone(pick) if _same_node(a, choice, st, made) else a
                                    for a in sub.args]
            branches.append(ir.Block([made]))
        stmts[k] = ir.If(X.clone(choice.test), branches[0], branches[1], st.loc)
        _choices_as_branches(stmts[k].then.stmts)      # a choice among choices
        _choices_as_branches(stmts[k].other.stmts)


def _is_function_choice(e):
    """e is a choice of functions (`c ? f : g`, `c ? f : NULL`, choices among choices),
    not one of numbers."""
    def function_or_null(x):
        return _is_function_value(x) or X.is_null(x) or _is_function_choice(x)
    return isinstance(e, ir.Cond) and isinstance(e.type.resolved(), ir.FuncPtr) and \
        function_or_null(e.then) and function_or_null(e.other)


def _same_node(a, choice, original, made):
    """Whether a, an expression of made (a copy of statement original), is the copy of
    choice: the same place in the same walk."""
    at = [id(x) for e in _stmt_exprs(original) for x in ir.walk(e)].index(id(choice))
    return [id(x) for e in _stmt_exprs(made) for x in ir.walk(e)][at] == id(a)


def _tests_decided(f, p, null, source):
    """f's statements with the tests of its function pointer parameter p decided, p being
    NULL or (null False) a function: `p ? p(v) : v` is v or p(v), `if (p != NULL) ...`
    goes or stays. Given NULL, no call through p may be left."""
    def fold(e):
        if isinstance(e, ir.Cond):
            known = _null_test(e.test, p, null)
            if known is not None:
                return fold(e.then if known else e.other)
        return X.map_children(e, fold) if not isinstance(e, ir.Ref) else e

    def block(stmts):
        out = []
        for st in stmts:
            if isinstance(st, ir.If) and _null_test(st.test, p, null) is not None:
                taken = st.then if _null_test(st.test, p, null) else st.other
                out += block(taken.stmts) if taken is not None else []
                continue
            for inner in ir.nested_lists(st):
                inner[:] = block(inner)
            _fold_exprs(st, fold)
            out.append(st)
        return out

    f.body.stmts = block(f.body.stmts)
    if not null:
        return
    for st in ir.stmts_walk(f.body.stmts):
        for e in _stmt_exprs(st):
            for sub in ir.walk(e):
                if isinstance(sub, ir.Call) and getattr(sub, "through", None) is p:
                    raise AdgenError(f"'{source}' calls its function parameter "
                                     f"'{p.name}', given NULL "
                                     "by a call, where no test of it keeps the call from "
                                     "running", sub.loc)


def _fold_exprs(st, fold):
    """The expressions of statement st (not those of the statements inside it) put
    through fold."""
    for name in ("lhs", "rhs", "expr", "test", "value"):
        e = getattr(st, name, None)
        if isinstance(e, ir.Expr):
            setattr(st, name, fold(e))
    if isinstance(st, ir.For):
        for x in st.init + st.step:
            _fold_exprs(x, fold)


def _null_test(e, p, null):
    """True or False: what the test e is when p is NULL (null) or a function (not null),
    for the tests of p alone (`p`, `!p`, `p == NULL`, `p != 0`); None for another
    expression."""
    while isinstance(e, ir.Cast):
        e = e.arg
    if isinstance(e, ir.Ref) and e.sym is p:
        return not null
    if isinstance(e, ir.Unary) and e.op == "!":
        inner = _null_test(e.arg, p, null)
        return None if inner is None else not inner
    if isinstance(e, ir.Binary) and e.op in ("==", "!="):
        for a, b in ((e.left, e.right), (e.right, e.left)):
            while isinstance(a, ir.Cast):
                a = a.arg
            if isinstance(a, ir.Ref) and a.sym is p and X.is_null(b):
                return null == (e.op == "==")
    return None
