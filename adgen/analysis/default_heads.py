"""Which functions are heads when no --head names one: those with floating-point inputs
and outputs, arrays included (`double A[n][n]` read, `double y[n]` written), that no
function but `main` calls. Set-up code (writes numbers, reads none) and printing (reads,
writes none) are not heads.

What a function does with an array parameter is read from its statements, and from its
callees' for the arrays it passes them; a pointer copied anywhere else (a local walking
it, a library call) counts as read and written."""
from adgen import ir
from adgen.analysis.activity import Activity, field_closure, find
from adgen.analysis.call_graph import callees, reachable_statements
from adgen.errors import AdgenError
from adgen.frontend.heads import parse_head


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
    if elem is not None and struct_numbers(elem) is not None:
        # structs of numbers (`const struct particle *p`): their numbers, as qualified
        return ir.Prim(struct_numbers(elem).name, elem.const or elem.resolved().const)
    return elem


def struct_numbers(t):
    """The first floating-point type among the fields of struct type t (through nested
    structs and arrays, not pointers), or None when t is not a struct holding one."""
    r = ir.array_element(t)
    if not isinstance(r, ir.Struct) or r.sdef is None:
        return None
    for _, ftype in r.sdef.fields:
        ft = ir.array_element(ftype)
        if ft.is_float:
            return ft
        found = struct_numbers(ft) if isinstance(ft, ir.Struct) else None
        if found is not None:
            return found
    return None


def number_node(mem, p):
    """The memory node of the numbers pointer or array parameter p reaches (see
    number_block): its pointee, or for row pointers what its rows point to."""
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
        if t.is_float or struct_numbers(t) is not None:
            inputs = True       # (a struct of numbers passed by value)
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


def user_functions(prog):
    return {n: f for n, f in prog.functions.items()
            if f.has_body and not getattr(f, "is_library", False)}


def default_io(prog, mem, f):
    """Independents and dependents of a head given without lists: float inputs and outputs."""
    act = Activity(prog, mem, [])
    reads, writes = set(), set()
    for s in reachable_statements(prog, f.name):
        for e in ir.stmt_exprs(s):
            reads |= {find(n) for n in act.reads(e) if e is not getattr(s, "lhs", None)}
        if isinstance(s, ir.Assign):
            writes.add(find(mem.loc(s.lhs)))
    indep, dep = [], []
    for p in f.params:
        t = p.type.resolved()
        if t.is_float or struct_numbers(t) is not None:
            indep.append(p.name)
        elif number_block(t) is not None and number_block(t).resolved().is_float:
            # (rows of numbers, row pointers included; a struct's fields with it)
            nodes = field_closure(number_node(mem, p))
            if nodes & reads or number_block(t).const:
                indep.append(p.name)
            if nodes & writes and not number_block(t).const:
                dep.append(p.name)
    if f.ret.resolved().is_float:
        dep.append(f.name)
    return dep, indep


def resolve_heads(prog, options):
    funcs = user_functions(prog)
    specs = options.heads
    if not specs:
        called = set()
        for f in funcs.values():
            if f.name != "main":    # what main calls is what the program is run for
                called |= set(callees(prog, f))
        roots = [n for n in funcs if n not in called and n != "main"]
        usable = [n for n in roots if getattr(funcs[n], "error", None) is None and
                  all(float_interface(prog, funcs[n])) and
                  not getattr(funcs[n], "array_result", False) and
                  getattr(funcs[n], "struct_result", None) is None and
                  not any(getattr(p, "class_dummy", False) for p in funcs[n].params)]
        if not usable:
            broken = [funcs[n].error for n in roots if getattr(funcs[n], "error", None)]
            if broken:
                raise broken[0]
            raise AdgenError("no function to differentiate: no function that no other calls "
                             "(but main) has floating-point inputs and outputs; name one with "
                             "--head")
        for n in roots:
            err = getattr(funcs[n], "error", None)
            if err is not None:
                # (a function adgen cannot read is left out of the default heads: said, as
                # the functions it calls may have become heads in its place)
                where = f"{err.loc}: " if err.loc is not None else ""
                prog.warnings = getattr(prog, "warnings", []) + [
                    f"{where}warning: '{ir.source_name(funcs[n])}' is left out of the "
                    f"functions differentiated (no --head names it): {err.message}"]
        specs = usable
    out = []
    for spec in specs:
        name, dep, indep = parse_head(spec)
        f = prog.functions.get(name)
        if f is None or getattr(f, "is_library", False):
            import difflib
            near = difflib.get_close_matches(name, [n for n, g in prog.functions.items()
                                                    if g.has_body and
                                                    not getattr(g, "is_library", False)], n=1)
            raise AdgenError(f"--head names '{name}', which is not a function of the input" +
                             (f"; did you mean '{near[0]}'?" if near else ""))
        if not f.has_body:
            raise AdgenError(f"--head names '{name}', which is declared but not defined "
                             "in the input", f.loc)
        if getattr(f, "array_result", False):
            raise AdgenError(f"--head names '{name}', a function that returns an array: not "
                             "supported for a head (its callers receive an array "
                             "descriptor; make it a subroutine with an INTENT(OUT) array)",
                             f.loc)
        if getattr(f, "struct_result", None) is not None:
            raise AdgenError(f"--head names '{name}', a function whose result is a structure "
                             "with allocatable components: not supported for a head (make "
                             "it a subroutine with an INTENT(INOUT) argument)", f.loc)
        # dummies gfortran passes by descriptor (or, CLASS, in a class container)
        by_descriptor = next((p for p in f.params if getattr(p, "allocatable_dummy", False) or
                              getattr(p, "pointer_dummy", False) or
                              getattr(p, "class_dummy", False)), None)
        if by_descriptor is not None:
            what, hint = ("CLASS(...)", "declare it TYPE(...)") \
                if getattr(by_descriptor, "class_dummy", False) else \
                ("a POINTER" if getattr(by_descriptor, "pointer_dummy", False) else
                 "allocatable", "give it an assumed-shape or explicit-shape dummy")
            raise AdgenError(f"--head names '{name}', whose dummy argument "
                             f"'{ir.source_name(by_descriptor)}' is {what}: not supported "
                             f"for a head ({hint})", by_descriptor.loc)
        texts = next((p for p in f.params if getattr(p, "char_array", False)), None)
        if texts is not None:
            raise AdgenError(f"--head names '{name}', whose dummy argument "
                             f"'{ir.source_name(texts)}' is a CHARACTER array: not supported "
                             "for a head (pass its elements, or keep it in a module)",
                             texts.loc)
        for names, what in ((dep, "dependent"), (indep, "independent")):
            if names == []:
                hint = " (the function's own name for its return value)" \
                    if what == "dependent" else ""
                raise AdgenError(f"--head '{spec}' names no {what}, so every derivative "
                                 f"would be zero: list the {what}s{hint}, or leave the list "
                                 "out for all of them", f.loc)
        if any(g is f for g, _, _, _ in out):
            raise AdgenError(f"two heads name '{name}': its derivative routine would be "
                             "defined twice; give each head of it a run (and an output) of "
                             "its own", f.loc)
        params = ir.params_by_source_name(f)
        result = getattr(f, "result_name", None)        # a Fortran function's RESULT name
        to_c = lambda names: None if names is None else [  # noqa: E731
            params[n].name if n in params else f.name if n == result else n for n in names]
        out.append((f, to_c(dep), to_c(indep), spec))
    return out
