"""Call-site cloning: a copy of a function for each calling context that tells apart
what its parameters may point to.

The memory analysis unifies what a parameter may point to across all calls of a function,
so a helper called once with a scratch array and once with a caller's input would make the
two indistinguishable: the scratch array would look like the caller's memory (saved and
logged where it need not be) and the input like scratch. A call site gets a copy of its
callee (recursively, for the functions it calls) unless an earlier site passes arguments
of the same origins: a context is the origin of each argument (a parameter of the head,
a global, a constant, or memory of the calling function's own, which is that call site's
alone), so a helper called many levels down with the head's arrays is copied once, not
once per call path. Copies whose derivative code turns out identical are merged again
after generation (see `merge_clones`), so the output grows only where the derivatives
really differ.
"""
from adgen import ir
from adgen.ir import exprs as X

MAX_COPIES = 400


def recursive_functions(prog, names):
    """Functions on a call cycle (those are never copied)."""
    from adgen.analysis.call_graph import callees
    graph = {n: [c for c in callees(prog, prog.functions[n]) if c in names] for n in names}
    recursive = set()
    for start in names:
        todo, seen = list(graph[start]), set()
        while todo:
            n = todo.pop()
            if n == start:
                recursive.add(start)
                break
            if n in seen:
                continue
            seen.add(n)
            todo += graph.get(n, [])
    return recursive


def copy_function(prog, f, name):
    """A copy of f under a new name, with symbols of its own."""
    memo = {}
    for g in prog.globals:
        memo[id(g)] = g
    for st in ir.stmts_walk(f.body.stmts):
        for e in ir.stmt_exprs(st):
            for sub in ir.walk(e):
                for attr in ("type", "to"):
                    t = getattr(sub, attr, None) if not isinstance(sub, ir.Ref) else None
                    if isinstance(t, ir.Type):
                        memo[id(t)] = t
                if isinstance(sub, ir.Ref):
                    memo[id(sub.sym.type)] = sub.sym.type
                    if sub.sym.kind == "global" or getattr(sub.sym, "is_library", False):
                        memo[id(sub.sym)] = sub.sym
    for s in list(f.params) + list(f.locals):
        memo[id(s.type)] = s.type
    memo[id(f.ret)] = f.ret
    for attr in ("error",):
        if getattr(f, attr, None) is not None:
            memo[id(getattr(f, attr))] = getattr(f, attr)
    g = X.deep_copy(f, memo)
    g.name = name
    g.clone_of = getattr(f, "clone_of", f.name)
    return g


def _calls_with_bodies(prog, f):
    """(statement, call, callee) of each call in f of a function of the program with a
    body (not a library function)."""
    for st in ir.stmts_walk(f.body.stmts):
        for e in ir.stmt_exprs(st):
            for sub in ir.walk(e):
                if not isinstance(sub, ir.Call):
                    continue
                g = prog.functions.get(sub.func)
                if g is not None and not getattr(g, "is_library", False) and g.has_body:
                    yield st, sub, g


def _new_copy(prog, g, base):
    """A copy of g (the function `base` or a copy of it) under the next free name
    `base_N`, added to the program."""
    n = 2
    while f"{base}_{n}" in prog.functions:
        n += 1
    c = copy_function(prog, g, f"{base}_{n}")
    prog.functions[c.name] = c
    return c


def clone_call_sites(prog, roots):
    """Give every non-recursive function one copy per calling context reachable from roots
    (see the module's text). Returns the names of the functions to analyse (originals and
    copies)."""
    from adgen.analysis.call_graph import reachable
    names = [n for n in reachable(prog, roots) if prog.functions[n].has_body]
    recursive = recursive_functions(prog, set(names))
    claimed = set(roots)
    order = list(roots)
    # the origins of each function's (or copy's) parameters, and the copy made for each
    # (function, origins of its arguments)
    context = {r: _own_origins(prog.functions[r]) for r in roots}
    copy_for = {}
    copies = 0
    k = 0
    while k < len(order):
        f = prog.functions[order[k]]
        k += 1
        if not f.has_body:
            continue
        origins = context.get(f.name)
        for site, (_, sub, g) in enumerate(_calls_with_bodies(prog, f), 1):
            if sub.func in recursive or f.name in recursive:
                if sub.func not in claimed:
                    claimed.add(sub.func)
                    order.append(sub.func)
                continue
            base = getattr(g, "clone_of", g.name)
            key = (base, _call_context(f, origins, sub, g, site))
            if key in copy_for:
                sub.func = copy_for[key]
                continue
            if sub.func not in claimed:
                claimed.add(sub.func)
            elif copies < MAX_COPIES:
                sub.func = _new_copy(prog, prog.functions[base], base).name
                claimed.add(sub.func)
                copies += 1
            else:
                continue
            order.append(sub.func)
            copy_for[key] = sub.func
            context[sub.func] = key[1]
    return order


def split_by_activity(prog, functions, mem, act):
    """Copies made for the call sites of one calling context that the analyses found to
    differ in activity: a value argument varied at one site and not at another, a result
    used at one and dropped at another. The sites of each function whose pattern differs
    from its first site's get a copy per pattern (of the function as it is now: its calls
    go to the same callees, which the next round may split in turn). Returns the names of
    the new copies (none: every function's sites agree)."""
    from adgen.analysis.activity import find
    varied, useful = act.varied, act.useful
    recursive = recursive_functions(prog, set(functions))

    def pattern(owner, st, call, g):
        values = tuple(any(find(n) in varied for n in act.reads(a))
                       for p, a in zip(g.params, call.args) if p.type.resolved().is_float)
        if not (g.ret.resolved().is_float or g.ret.resolved().is_struct):
            return values
        if isinstance(st, ir.ExprStmt) and st.expr is call:
            used = False
        elif isinstance(st, ir.Assign):
            used = find(mem.loc(st.lhs)) in useful
        elif isinstance(st, ir.Return):
            used = find(mem.ret(owner.name)) in useful
        else:
            used = True
        return values + (used,)

    sites = {}      # callee -> {pattern: [calls]}, in the order met
    for name in functions:
        f = prog.functions[name]
        for st, sub, g in _calls_with_bodies(prog, f):
            if g.name not in recursive:
                sites.setdefault(g.name, {}).setdefault(
                    pattern(f, st, sub, g), []).append(sub)
    made = []
    copies = sum(1 for n in functions if getattr(prog.functions[n], "clone_of", None))
    for name, groups in sites.items():
        if name not in functions or len(groups) < 2:
            continue
        g = prog.functions[name]
        base = getattr(g, "clone_of", g.name)
        for calls in list(groups.values())[1:]:
            if copies >= MAX_COPIES:
                return made
            c = _new_copy(prog, g, base)
            for call in calls:
                call.func = c.name
            made.append(c.name)
            copies += 1
    return made


def _own_origins(f):
    """A head's parameters: each its own origin."""
    return tuple(frozenset([(("param", f.name, i), ())]) for i in range(len(f.params)))


def _carries_memory(t):
    t = t.resolved() if t is not None else None
    return t is None or not (t.is_int or t.is_float)


def _access(e):
    """(the variable, the path) by which a pointer argument names memory, indices and
    offsets aside: the fields and dereferences on the way (`p->v` and `p->w` are told
    apart, `x + k` and `&x[i]` name x's memory). (None, None) for memory no variable
    names (what a call returns)."""
    if isinstance(e, ir.Ref):
        return e.sym, ()
    if isinstance(e, ir.Cast):
        return _access(e.arg)
    if isinstance(e, ir.Binary) and e.op in ("+", "-"):
        return _access(e.left if _carries_memory(e.left.type) else e.right)
    if isinstance(e, ir.Member):
        inner, step = e.base, ("->" if e.arrow else ".") + e.field
    elif isinstance(e, ir.Index):
        inner, step = e.base, "[]"
    elif isinstance(e, ir.Deref):
        inner, step = e.ptr, "*"
    elif isinstance(e, ir.AddrOf):
        inner, step = e.arg, "&"
    else:
        return None, None
    sym, path = _access(inner)
    if sym is None:
        return None, None
    if step == "&" and path and path[-1] in ("*", "[]"):
        return sym, path[:-1]       # `&*p`, `&p[i]`: p's memory
    return sym, path + (step,)


def _call_context(f, origins, call, g, site):
    """The origin of each argument of a call in f (whose parameters have the origins
    given; None: unknown, each call site its own): a frozenset per argument of (where,
    the path from there: `_access`). Memory of f's own (a local array, what a call
    returns) is this call site's alone; a scalar of f's own passed by reference (every
    Fortran argument) is that scalar of every copy of f; a value is where the values it
    reads come from (copies are told apart later by their activity: split_by_activity)."""
    out = []
    for i, a in enumerate(call.args):
        t = g.params[i].type if i < len(g.params) else a.type
        if _carries_memory(t) or _carries_memory(a.type):
            sym, path = _access(a)
            if sym is not None and (sym.kind == "global" or getattr(sym, "is_library", False)):
                out.append(frozenset([(("global", sym.name), path)]))
            elif sym is not None and sym.kind == "param" and origins is not None and \
                    sym in f.params:
                out.append(frozenset((root, before + path)
                                     for root, before in origins[f.params.index(sym)]))
            elif sym is not None and path == ("&",) and not _carries_memory(sym.type):
                out.append(frozenset([(("scalar", getattr(f, "clone_of", f.name), sym.name),
                                       ())]))
            else:
                out.append(frozenset([(("site", f.name, site, i), ())]))
            continue
        atoms = set()
        for sub in ir.walk(a):
            if isinstance(sub, ir.Call):
                atoms.add(("local", ()))
            elif isinstance(sub, ir.Ref):
                s = sub.sym
                if s.kind == "global" or getattr(s, "is_library", False):
                    atoms.add((("global", s.name), ()))
                elif s.kind == "param" and origins is not None and s in f.params:
                    atoms |= origins[f.params.index(s)]
                else:
                    atoms.add(("local", ()))
        if not atoms:
            atoms.add((("const", a.text if isinstance(a, ir.Const) else "expr"), ()))
        out.append(frozenset(atoms))
    return tuple(out)


def original_name(prog, name):
    f = prog.functions.get(name)
    return getattr(f, "clone_of", name) if f is not None else name
