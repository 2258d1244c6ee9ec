"""Function pointers kept in variables and struct fields (`m.law = quad; ... m->law(u)`):
a call through one is a call of the function stored there when every value the program
can store there is that one function. The C front end translates a function named as a
value into a constant (ir.Const of a FuncPtr type) and a call through such a pointer into
a call naming no function (`through_storage`, the pointer's expression); resolve() then
reads every store of the translation unit and either names the function in the call or
leaves the error with the function making it (reported when that function is
differentiated). The stores themselves are dropped: the derivative code calls the function
directly.

A pointer's stores are known only where nothing outside the file can set it: a variable
local to a function or `static`, and a struct field of a type that no function callable
from outside (one not `static`, or a `static` one no function of the file calls: a head)
receives and no global outside the file reaches. Where the pointer is also used as a
value (compared, copied, passed on, its address taken), or may hold several functions,
calls through it are refused, naming it and the way out."""
from adgen import ir
from adgen.errors import AdgenError

UNKNOWN = "an unknown value"


def storage_key(e):
    """(key, text) of the storage lvalue e names: a variable, or a field of a struct type
    (all structs of that type: a copy of one carries its pointers to another); None for
    other storage (an element of an array of pointers)."""
    from adgen.ir.c_text import expr_c
    if isinstance(e, ir.Ref):
        return ("var", e.sym), e.sym.name
    if isinstance(e, ir.Member) and e.base.type is not None:
        t = e.base.type.resolved()
        if e.arrow and isinstance(t, ir.Ptr):
            t = t.target.resolved()
        if isinstance(t, ir.Struct):
            return ("field", id(t.sdef), e.field), expr_c(e)
    return None, None


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
    """True when e is a function pointer variable or field (no parameter: a callback)."""
    return isinstance(e, (ir.Ref, ir.Member)) and e.type is not None and \
        isinstance(e.type.resolved(), ir.FuncPtr) and \
        not (isinstance(e, ir.Ref) and e.sym.kind == "param")


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
        if isinstance(g.type.resolved(), ir.FuncPtr):
            key = ("var", g)
            texts[key] = g.name
            init = (getattr(g, "init_text", None) or "").strip().lstrip("&").strip()
            if not g.is_static:
                add(key, None)      # another file may set it
            elif init and init not in ("0", "NULL"):
                add(key, [init] if init in front.functions else None)
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
                exprs = [s.rhs] + [x for x in ir.walk(s.lhs) if x is not s.lhs]
            else:
                exprs = ir.stmt_exprs(s)
            for e in exprs:
                for x in ir.walk(e):
                    if isinstance(x, ir.Call) and getattr(x, "through_storage", None) is not None:
                        calls.append((f, x))
                    elif _is_storage_read(x) and not _in_call_storage(e, x):
                        key, text = storage_key(x)
                        if key is not None:
                            texts[key] = text
                            reads.setdefault(key, f)
    for f, call in calls:
        key, text = storage_key(call.through_storage)
        error = _unresolved(front, key, text or call.func, stores, reads, outside)
        if error is None:
            target = front.functions[next(iter(stores[key]))]
            _name_target(front, call, target)
        elif getattr(f, "error", None) is None:
            f.error = AdgenError(error, call.loc)
    for f in functions.values():
        _drop_stores(f.body.stmts)
        # a local pointer left unused (its stores dropped, its calls resolved)
        used = {x.sym for s in ir.stmts_walk(f.body.stmts) for e in ir.stmt_exprs(s)
                for x in ir.walk(e) if isinstance(x, ir.Ref)}
        f.locals[:] = [v for v in f.locals if v in used or
                       not isinstance(v.type.resolved(), ir.FuncPtr)]


def _in_call_storage(root, x):
    """True when x is the storage expression of a call inside root (not a value read)."""
    return any(getattr(c, "through_storage", None) is x for c in ir.walk(root)
               if isinstance(c, ir.Call))


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


def _drop_stores(stmts):
    """Remove the assignments to function pointers (their calls name the function now)."""
    stmts[:] = [s for s in stmts if not (isinstance(s, ir.Assign) and s.lhs.type is not None
                                         and isinstance(s.lhs.type.resolved(), ir.FuncPtr))]
    for s in stmts:
        for inner in ir.nested_lists(s):
            _drop_stores(inner)
