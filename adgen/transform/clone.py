"""Call-site cloning: one copy of a function per place it is called from.

The memory analysis unifies what a parameter may point to across all calls of a function,
so a helper called once with a scratch array and once with a caller's input would make the
two indistinguishable: the scratch array would look like the caller's memory (saved and
logged where it need not be) and the input like scratch. Giving each call site its own copy
of the callee (recursively, for the functions it calls) keeps them apart. Copies whose
derivative code turns out identical are merged again after generation (see `merge_clones`),
so the output grows only where the derivatives really differ.
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


def clone_call_sites(prog, roots):
    """Give every non-recursive function one copy per call site reachable from roots.
    Returns the names of the functions to analyse (originals and copies)."""
    from adgen.analysis.call_graph import reachable
    names = [n for n in reachable(prog, roots) if prog.functions[n].has_body]
    recursive = recursive_functions(prog, set(names))
    claimed = set(roots)
    order = list(roots)
    copies = 0
    k = 0
    while k < len(order):
        f = prog.functions[order[k]]
        k += 1
        if not f.has_body:
            continue
        for st in ir.stmts_walk(f.body.stmts):
            for e in ir.stmt_exprs(st):
                for sub in ir.walk(e):
                    if not isinstance(sub, ir.Call):
                        continue
                    g = prog.functions.get(sub.func)
                    if g is None or getattr(g, "is_library", False) or not g.has_body:
                        continue
                    if sub.func in recursive or f.name in recursive:
                        if sub.func not in claimed:
                            claimed.add(sub.func)
                            order.append(sub.func)
                        continue
                    if sub.func not in claimed:
                        claimed.add(sub.func)
                        order.append(sub.func)
                        continue
                    if copies >= MAX_COPIES:
                        continue
                    base = getattr(g, "clone_of", g.name)
                    n = 2
                    while f"{base}_{n}" in prog.functions:
                        n += 1
                    c = copy_function(prog, prog.functions[base], f"{base}_{n}")
                    prog.functions[c.name] = c
                    sub.func = c.name
                    claimed.add(c.name)
                    order.append(c.name)
                    copies += 1
    return order


def original_name(prog, name):
    f = prog.functions.get(name)
    return getattr(f, "clone_of", name) if f is not None else name
