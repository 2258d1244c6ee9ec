"""Function pointers kept in variables, arrays and struct fields (`m.law = quad; ...
m->law(u)`, `rhs_t f[2] = {rhs0, rhs1}; ... f[j](t, x)`): a call through one is a call of
the function stored there when every value the program can store there is that one
function. The C front end translates a function named as a value into a constant (ir.Const
of a FuncPtr type) and a call through such a pointer into a call naming no function
(`through_storage`, the pointer's expression); resolve() then reads every store of the
translation unit and either names the function in the call or leaves the error with the
function making it (reported when that function is differentiated). The stores themselves
are dropped: the derivative code calls the function directly.

A variable or an array that may hold one of several functions holds instead the number of
the function in a list of them (1, 2, ...; 0 for a null pointer), and a call through it
calls a function of its own, `f_call(which, t, x)`, that calls the function of that number
(`dispatch`): a choice of calls, which the derivative code takes as any other branch. One
holding no function of the list stops with a message (the program would call through a
null or unset pointer).

A pointer's stores are known only where nothing outside the file can set it: a variable
local to a function or `static`, and a struct field of a type that no function callable
from outside (one not `static`, or a `static` one no function of the file calls: a head)
receives and no global outside the file reaches. Where the pointer is also used as a
value (compared, copied, passed on, its address taken), or a field may hold several
functions, calls through it are refused, naming it and the way out."""
import os

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir.c_text import c_string, expr_c

UNKNOWN = "an unknown value"


def storage_key(e):
    """(key, text) of the storage lvalue e names: a variable (an element of an array: the
    whole array), or a field of a struct type (all structs of that type: a copy of one
    carries its pointers to another); None for other storage (an element of an array a
    pointer points to)."""
    if isinstance(e, ir.Ref):
        return ("var", e.sym), e.sym.name
    if isinstance(e, ir.Deref) and isinstance(e.type.resolved() if e.type else None,
                                              ir.FuncPtr):
        return storage_key(e.ptr)       # `(*f)(x)` calls f
    if isinstance(e, ir.Index):
        # an element of a local or static array of function pointers: the whole array
        base = e
        while isinstance(base, ir.Index):
            base = base.base
        if isinstance(base, ir.Ref) and _holds_functions(base.sym.type):
            return ("var", base.sym), expr_c(e)
        return None, None
    if isinstance(e, ir.Member) and e.base.type is not None:
        t = e.base.type.resolved()
        if e.arrow and isinstance(t, ir.Ptr):
            t = t.target.resolved()
        if isinstance(t, ir.Struct):
            return ("field", id(t.sdef), e.field), expr_c(e)
    return None, None


def _holds_functions(t):
    """A function pointer, or an array of them."""
    t = t.resolved()
    while isinstance(t, ir.Arr):
        t = t.elem.resolved()
    return isinstance(t, ir.FuncPtr)


def stored_functions(e):
    """The names of the functions expression e stores (a function, or a choice of them),
    [] for a null pointer, None for anything else (another pointer's value)."""
    if isinstance(e, ir.Cast):
        return stored_functions(e.arg)
    if isinstance(e, ir.Const) and isinstance(e.type.resolved(), ir.FuncPtr):
        return [e.text]
    if isinstance(e, ir.Const) and e.value == 0 or \
            isinstance(e, ir.Const) and e.text in ("0", "NULL", "((void *)0)"):
        return []
    if isinstance(e, ir.Cond):
        a, b = stored_functions(e.then), stored_functions(e.other)
        return None if a is None or b is None else a + b
    return None


def _initial_functions(text, functions):
    """The functions an initializer's C text stores, in order (`quad`, `&quad`, `{f0, f1,
    NULL}`), None for a null pointer; None where it holds anything else."""
    items = []
    for item in text.strip().strip("{}").split(","):
        item = item.strip().lstrip("&").strip()
        if item in functions:
            items.append(item)
        elif item in ("0", "NULL"):
            items.append(None)
        elif item:
            return None
    return items


def _structs_reached(t, out):
    """The struct definitions a value of type t holds or points to, added to out."""
    t = t.resolved()
    while isinstance(t, (ir.Ptr, ir.Arr)):
        t = (t.target if isinstance(t, ir.Ptr) else t.elem).resolved()
    if isinstance(t, ir.Struct) and id(t.sdef) not in out:
        out.add(id(t.sdef))
        for _, ft in t.sdef.fields:
            _structs_reached(ft, out)


def _outside_structs(functions, globals_):
    """The structs whose values may come from outside the file: those the parameters of
    functions callable from outside reach (not static, or static and called by no function
    of the file: a head the file is included for), and those of globals that are not
    static or are initialized (an initializer list is not read for its functions)."""
    called = {x.func for f in functions.values() if f.has_body
              for s in ir.stmts_walk(f.body.stmts) for e in ir.stmt_exprs(s)
              for x in ir.walk(e) if isinstance(x, ir.Call)}
    out = set()
    for f in functions.values():
        if f.has_body and (not f.is_static or f.name not in called):
            for p in f.params:
                _structs_reached(p.type, out)
    for g in globals_:
        if not getattr(g, "is_static", False) or getattr(g, "init_text", None):
            _structs_reached(g.type, out)
    return out


def _is_storage_read(e):
    """True when e is a function pointer variable, field or element, or an array of them
    (no parameter: a callback)."""
    return isinstance(e, (ir.Ref, ir.Member, ir.Index)) and e.type is not None and \
        _holds_functions(e.type) and not (isinstance(e, ir.Ref) and e.sym.kind == "param")


def resolve(front):
    """Resolve the calls through stored function pointers of front (a CFront whose
    functions are all translated), and drop the stores."""
    functions = {n: f for n, f in front.functions.items() if f.has_body}
    stores = {}         # key -> set of function names, UNKNOWN among them
    texts = {}          # key -> the pointer's text, for messages
    reads = {}          # key -> the function using the pointer as a value
    calls = []          # (function, call)
    outside = _outside_structs(front.functions, front.globals)

    def add(key, names):
        stores.setdefault(key, set()).update(names if names is not None else [UNKNOWN])

    for g in front.globals:
        if _holds_functions(g.type):
            key = ("var", g)
            texts[key] = g.name
            init = (getattr(g, "init_text", None) or "").strip()
            if not g.is_static:
                add(key, None)      # another file may set it
            elif init:
                items = _initial_functions(init, front.functions)
                add(key, None if items is None else [n for n in items if n is not None])
    for f in functions.values():
        for s in ir.stmts_walk(f.body.stmts):
            lhs_type = s.lhs.type.resolved() if isinstance(s, ir.Assign) and \
                s.lhs.type is not None else None
            if isinstance(lhs_type, ir.FuncPtr):
                key, text = storage_key(s.lhs)
                if key is not None:
                    texts[key] = text
                    add(key, stored_functions(s.rhs))
                    if key[0] == "field" and key[1] in outside:
                        add(key, None)
                stored = {id(x) for x in ir.lvalue_chain(s.lhs)}
                exprs = [s.rhs] + [x for x in ir.walk(s.lhs) if id(x) not in stored]
            else:
                exprs = ir.stmt_exprs(s)
            for e in exprs:
                nodes = list(ir.walk(e))
                called = {id(y) for c in nodes if isinstance(c, ir.Call) and
                          getattr(c, "through_storage", None) is not None
                          for y in ir.lvalue_chain(c.through_storage)}
                for x in nodes:
                    if isinstance(x, ir.Call) and getattr(x, "through_storage", None) is not None:
                        calls.append((f, x))
                    elif _is_storage_read(x) and id(x) not in called:
                        key, text = storage_key(x)
                        if key is not None:
                            texts[key] = text
                            reads.setdefault(key, f)
    numbered = {}       # key -> the functions it may hold, numbered from 1 in this order
    dispatchers = {}    # key -> the function calling the function of a number
    for f, call in calls:
        key, text = storage_key(call.through_storage)
        error = _unresolved(front, key, text or call.func, stores, reads, outside)
        if error is None:
            target = front.functions[next(iter(stores[key]))]
            _name_target(front, call, target)
            continue
        targets = _dispatched(front, key, stores, reads, outside)
        if targets is not None and getattr(f, "error", None) is None:
            numbered[key] = targets
            if key not in dispatchers:
                dispatchers[key] = _dispatcher(front, key[1], targets, call.loc)
            _call_dispatch(front, call, dispatchers[key])
        elif getattr(f, "error", None) is None:
            f.error = AdgenError(error, call.loc)
    for f in functions.values():
        _drop_stores(f.body.stmts, numbered)
    for key, targets in numbered.items():
        _number_storage(front, key[1], targets)
    for f in functions.values():
        # a local pointer left unused (its stores dropped, its calls resolved)
        if not any(_holds_functions(v.type) for v in f.locals):
            continue
        used = {x.sym for s in ir.stmts_walk(f.body.stmts) for e in ir.stmt_exprs(s)
                for x in ir.walk(e) if isinstance(x, ir.Ref)}
        f.locals[:] = [v for v in f.locals if v in used or not _holds_functions(v.type)]


def _unresolved(front, key, text, stores, reads, outside):
    """Why a call through the pointer of key cannot be resolved, or None."""
    way_out = "pass the function as an argument (callbacks are supported)"
    if key is None:
        return (f"call through the function pointer '{text}', an element of an array of "
                f"function pointers: adgen cannot tell which function it calls; {way_out}")
    if key in reads:
        return (f"call through the function pointer '{text}', which "
                f"'{reads[key].name}' also uses as a value (compares, copies or passes "
                f"it): adgen resolves a call through a pointer only where the pointer is "
                f"just set and called; {way_out}")
    names = stores.get(key, set())
    if key[0] == "var" and key[1].kind == "global" and not key[1].is_static:
        return (f"call through the function pointer '{text}', a global another file may "
                f"set: adgen cannot tell which function it calls; declare it `static`, or "
                f"{way_out}")
    if key[0] == "field" and key[1] in outside:
        return (f"call through the function pointer '{text}', in a struct that may come "
                f"from outside the file (a parameter of a function called from outside it, "
                f"or a global): adgen cannot tell which function it calls; {way_out}")
    if UNKNOWN in names:
        return (f"call through the function pointer '{text}', which is also set from "
                f"another pointer: adgen cannot tell which function it calls; {way_out}")
    functions = sorted(n for n in names if n in front.functions)
    if len(functions) > 1:
        listed = ", ".join(f"'{n}'" for n in functions)
        return (f"call through the function pointer '{text}', which may point to "
                f"{listed}: adgen resolves a pointer that holds one function only; "
                f"{way_out}")
    if not functions:
        return (f"call through the function pointer '{text}', which no function of the "
                f"input sets: adgen cannot tell which function it calls; {way_out}")
    return None


def _name_target(front, call, target):
    """Make call a direct call of target, its arguments converted to the parameters."""
    if not target.variadic and len(call.args) != len(target.params):
        raise AdgenError(f"'{target.name}' takes {len(target.params)} arguments, "
                         f"{len(call.args)} given (a call through a pointer to it)", call.loc)
    call.args = [front.convert(a, p.type) for a, p in zip(call.args, target.params)] + \
        call.args[len(target.params):]
    call.func = target.name
    call.type = target.ret
    call.through_storage = None


def _drop_stores(stmts, numbered):
    """Remove the assignments to function pointers (their calls name the function now),
    but those to the storage of numbered, which store the function's number instead."""
    kept = []
    for s in stmts:
        if isinstance(s, ir.Assign) and s.lhs.type is not None and \
                isinstance(s.lhs.type.resolved(), ir.FuncPtr):
            key, _ = storage_key(s.lhs)
            if key not in numbered:
                continue
            s.rhs = _number_of(s.rhs, numbered[key], s.loc)
            if not isinstance(s.lhs, ir.Ref):
                s.lhs.type = ir.INT
        kept.append(s)
    stmts[:] = kept
    for s in stmts:
        for inner in ir.nested_lists(s):
            _drop_stores(inner, numbered)


# ------------------------------------------------------- several functions: numbers


def _dispatched(front, key, stores, reads, outside):
    """The functions a variable or array of key may hold, in the order of their numbers,
    where calls through it can go through a function choosing among them: a variable or
    array (not a field) that only stores and calls read, stored only known functions (or
    a null pointer), each taking the same arguments. None otherwise."""
    if key is None or key[0] != "var" or key in reads:
        return None
    sym = key[1]
    if sym.kind == "global" and not sym.is_static:
        return None
    names = stores.get(key, set())
    if UNKNOWN in names or any(n not in front.functions for n in names):
        return None
    targets = sorted(names)
    funcs = [front.functions[n] for n in targets]
    if len(funcs) < 2 or any(g.variadic for g in funcs) or \
            len({len(g.params) for g in funcs}) != 1:
        return None
    ret = funcs[0].ret.resolved()
    if not (ret.is_void or ret.is_float or ret.is_int) or \
            any(g.ret.resolved() != ret for g in funcs):
        return None
    return targets


def _number_of(e, targets, loc):
    """The number standing for the function (or choice of functions) e stores."""
    if isinstance(e, ir.Cast):
        return _number_of(e.arg, targets, loc)
    if isinstance(e, ir.Cond):
        return ir.Cond(e.test, _number_of(e.then, targets, loc),
                       _number_of(e.other, targets, loc), ir.INT, loc)
    if isinstance(e, ir.Const) and isinstance(e.type.resolved(), ir.FuncPtr):
        return ir.Const(str(targets.index(e.text) + 1), ir.INT, loc)
    return ir.Const("0", ir.INT, loc)       # a null pointer (stored_functions: [])


def _number_storage(front, sym, targets):
    """sym, an array or variable of function pointers, holds their numbers instead."""
    def numbered(t):
        r = t.resolved()
        if isinstance(r, ir.Arr):
            return ir.Arr(numbered(r.elem), r.size)
        return ir.INT
    sym.type = numbered(sym.type)
    sym.function_numbers = targets      # (the refusals of state kept between calls name it)
    init = (getattr(sym, "init_text", None) or "").strip()
    if init:
        # (an initializer of a numbered pointer holds only functions: _dispatched)
        numbers = ", ".join(str(targets.index(n) + 1) if n is not None else "0"
                            for n in _initial_functions(init, targets))
        sym.init_text = "{" + numbers + "}" if init.startswith("{") else numbers


def _call_dispatch(front, call, g):
    """Make call, through a numbered pointer, a call of g, the function choosing by the
    number kept there (_dispatcher)."""
    storage = call.through_storage
    if isinstance(storage, ir.Deref):
        storage = storage.ptr
    if not isinstance(storage, ir.Ref):     # (a variable's type: _number_storage)
        storage.type = ir.INT
    call.args = [storage] + [front.convert(a, p.type) for a, p in zip(call.args, g.params[1:])]
    call.func = g.name
    call.type = g.ret
    call.through_storage = None


def _dispatcher(front, sym, targets, loc):
    """`static R NAME_call(int which, ...)`, calling the function numbered `which`."""
    funcs = [front.functions[n] for n in targets]
    name, k = f"{sym.name}_call", 2
    while name in front.functions or any(g.name == name for g in front.globals):
        name, k = f"{sym.name}_call{k}", k + 1
    taken = {"which", "result"}
    params = [ir.Symbol("which", ir.INT, "param", loc)]
    for i, p in enumerate(funcs[0].params):
        pname = p.name if p.name not in taken else f"arg{i + 1}"
        taken.add(pname)
        params.append(ir.Symbol(pname, p.type, "param", loc))
    ret = funcs[0].ret
    result = ir.Symbol("result", ret, "local", loc) if not ret.resolved().is_void else None
    listed = ", ".join(targets)
    what = f"an element of the function pointer array '{sym.name}'" \
        if isinstance(sym.type.resolved(), ir.Arr) else f"the function pointer '{sym.name}'"
    message = f"{os.path.basename(loc.file)}:{loc.line}: {what} holds none of {listed}: " \
              "the derivative code cannot call through it"
    chain = ir.ExprStmt(ir.Call("adgen_shape_error", [ir.Const(
        c_string(message), ir.Ptr(ir.Prim("char", True)), loc)], ir.VOID, loc), loc)
    for number, g in reversed(list(enumerate(funcs, 1))):
        args = [front.convert(ir.Ref(p), q.type) for p, q in zip(params[1:], g.params)]
        called = ir.Call(g.name, args, g.ret, loc)
        do = ir.Assign(ir.Ref(result), called, loc) if result is not None else \
            ir.ExprStmt(called, loc)
        chain = ir.If(ir.Binary("==", ir.Ref(params[0]), ir.Const(str(number), ir.INT, loc),
                                ir.INT, loc), ir.Block([do]), ir.Block([chain]), loc)
    zero = "0.0" if ret.resolved().is_float else "0"
    body = ([ir.Assign(ir.Ref(result), ir.Const(zero, ret, loc), loc)] if result else []) + \
        [chain, ir.Return(ir.Ref(result) if result is not None else None, loc)]
    f = ir.Function(name, ret, params, ir.Block(body, loc),
                    [result] if result is not None else [], is_static=True, loc=loc)
    f.is_library = False
    f.stated_sizes = {}
    f.comment = f"Calls the function of number `which` of {listed} (the numbers the " \
                f"function pointer '{sym.name}' holds)."
    front.functions[name] = f
    return f
