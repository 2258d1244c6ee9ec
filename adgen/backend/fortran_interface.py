"""Companions of the C output for Fortran callers: a C header with the prototypes of the
exported routines, and a Fortran module of interfaces (bind(C) to the same symbols) that
callers may `use` to have their calls checked.

A head with assumed-shape dummies (`a(:)`) is exported with the hidden extents of those
dummies appended, by reference (pass_by_reference). Its Fortran callers pass array
descriptors, which the C routine does not read: the module gives them a module procedure
of the derivative's name with the same assumed-shape dummies, which passes the arrays
(contiguous, gfortran copies them in and out otherwise) and their extents to the C
routine."""
from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.ir.generated import LocalDecl
from adgen.backend.cgen import env, signature

_FORTRAN_KIND = {"double": "real(c_double)", "float": "real(c_float)", "int": "integer(c_int)",
                 "long": "integer(c_long)", "long double": "real(c_long_double)"}


def exported(unit):
    return [f for f in unit.functions if not f.is_static]


def hidden_extents(fn):
    """The parameters of fn that are extents of assumed-shape dummies (see
    fortran_front.Scope.assumed_shape_extents)."""
    return [p for p in fn.params if getattr(p, "extent_of", None) is not None]


def pass_by_reference(unit):
    """Every argument of an exported routine is passed by reference, also those the C
    code takes by value: the number of directions in vector mode, `int *nbdirs` where it
    is, and the hidden extents, which become the last parameters, `int *a_extent`. Each
    is read first thing into the by-value variable the body and the sizes of automatic
    arrays use. The lengths of CHARACTER dummies alone are by value, last of all, as
    gfortran passes them."""
    taken = {g.name for g in unit.globals_extern + unit.globals_static}
    for fn in unit.functions:
        taken |= {fn.name} | {p.name for p in fn.params} | {d.sym.name for d in fn.locals}
    for fn in exported(unit):
        extents = hidden_extents(fn)
        by_value = [p for p in fn.params if getattr(p, "directions", False)] + extents
        refs = {}
        for e in by_value:
            ref = refs[e] = ir.Symbol(e.name, ir.Ptr(e.type), "param", e.loc)
            ref.extent_of = getattr(e, "extent_of", None)
            name = e.name + "_value"
            while name in taken:
                name += "_"
            taken.add(name)
            e.name = name
        # the lengths of CHARACTER dummies stay by value, after all the others (also
        # after a function's fb, nbdirs and the extents), where gfortran passes them
        lengths = [p for p in fn.params if getattr(p, "char_len_of", None) is not None]
        fn.params = [refs.get(p, p) for p in fn.params if p not in extents + lengths] + \
            [refs[e] for e in extents] + lengths
        fn.locals[:0] = [LocalDecl(e, init=ir.Deref(ir.Ref(refs[e]), e.type))
                         for e in by_value]


def _extents_note(fn):
    """A comment naming the hidden extents of fn's prototype, or ''."""
    extents = [p.name for p in fn.params if getattr(p, "extent_of", None) is not None]
    if not extents:
        return ""
    return (f"{fn.name}: after the other arguments, the extents of the assumed-shape "
            f"dummies: {', '.join(extents)}")


def c_header(unit):
    # the include guard is the output's (`cost_b.h`: ADGEN_COST_B_H), so that a C file may
    # include the headers of several derivatives of one routine
    guard = f"ADGEN_{unit.output_stem.upper()}_H"
    return env().get_template("fortran_header.h.j2").render(
        u=unit, guard=guard, structs=_struct_definitions(exported(unit)),
        prototypes=[(_extents_note(f), signature(f)) for f in exported(unit)])


def _struct_definitions(functions):
    """[(tag, definition)] of the structs (derived types) the prototypes of functions
    take, those they contain first; each has a guard of its own, so that a C file may
    include several headers taking the same type."""
    from adgen.ir.c_text import struct_definition
    out = {}

    def add(t):
        t = t.resolved()
        while isinstance(t, (ir.Ptr, ir.Arr)):
            t = (t.target if isinstance(t, ir.Ptr) else t.elem).resolved()
        if isinstance(t, ir.Struct) and t.sdef.tag not in out:
            for _, ft in t.sdef.fields:
                add(ft)
            out[t.sdef.tag] = struct_definition(t.sdef)

    for f in functions:
        for p in f.params:
            add(p.type)
    return list(out.items())


def _primal(sym):
    return getattr(sym, "primal", None) or sym


def _is_array(sym):
    return bool(getattr(_primal(sym), "fortran_array", False))


def _data_type(sym):
    """The type of a dummy's data: what its C parameter points to, or its own type."""
    t = sym.type.resolved()
    return t.target.resolved() if isinstance(t, ir.Ptr) else t


def _derived_type(sym):
    """The Fortran derived type of a dummy (fortran_types.DerivedType), or None."""
    return getattr(getattr(_data_type(sym), "sdef", None), "fortran_type", None)


def _complex(sym):
    """The interoperable COMPLEX kind of a complex dummy's data, or None."""
    part = getattr(getattr(_data_type(sym), "sdef", None), "complex_part", None)
    if part is None:
        return None
    return "c_double_complex" if part == ir.DOUBLE else "c_float_complex"


def _kind(sym):
    kind = _complex(sym)
    if kind is not None:
        return f"complex({kind})"
    dt = _derived_type(sym)
    if dt is not None:
        return f"type({dt.name})"
    return _FORTRAN_KIND.get(getattr(_data_type(sym), "name", ""), "integer(c_int)")


def _dims(sym, vector):
    """The array spec of a dummy of a module procedure: assumed-shape (`(:, :)`) where the
    primal's dummy is, with one more leading dimension (the directions) for a derivative in
    vector mode; else assumed-size (`(*)`); '' for a scalar."""
    primal = _primal(sym)
    rank = len(getattr(primal, "extent_params", ()))
    derivative = primal is not sym
    if rank:
        return "(" + ", ".join([":"] * (rank + (vector and derivative))) + ")"
    if _is_array(sym) or (vector and derivative):
        return "(*)"
    return ""


def fortran_names(fn):
    """{parameter: its dummy name in the interface module}: the Fortran source's names, so
    that a caller may pass arguments by keyword. A dummy named like a C keyword has another
    C name (`double` is `double_2`), and so do the derivative and the extent named after
    it (`double_2b` is `doubleb`). Where those names would clash, the C names."""
    out = {}
    for p in fn.params:
        origin = getattr(p, "primal", None) or (getattr(p, "extent_of", None) or (None,))[0]
        if origin is not None and origin is not p and p.name.startswith(origin.name):
            out[p] = ir.source_name(origin) + p.name[len(origin.name):]
        else:
            out[p] = ir.source_name(p)
    if len({n.lower() for n in out.values()}) < len(out):
        return {p: p.name for p in fn.params}
    return out


def _dummy(sym, name, vector):
    """The declaration of a dummy of the bind(C) interface of a C routine."""
    if _is_string(sym):
        return f"character(len=*), intent(in) :: {name}"
    if not isinstance(sym.type.resolved(), ir.Ptr):
        return f"{_kind(sym)}, value :: {name}"
    dims = "(*)" if _dims(sym, vector) else ""
    # an OPTIONAL dummy and its derivative: a caller may leave them out (a null pointer)
    optional = ", optional" if _optional(sym) else ""
    return f"{_kind(sym)}{optional} :: {name}{dims}"


def _is_string(sym):
    """Whether a parameter is a CHARACTER dummy (`char *`, its length passed apart)."""
    t = sym.type.resolved()
    return isinstance(t, ir.Ptr) and getattr(t.target.resolved(), "name", "") == "char"


def _size_argument(extent, names):
    array, dim = extent.extent_of
    return f"int(size({names.get(array, ir.source_name(array))}, {dim}), c_int)"


def _optional(sym):
    """Whether a parameter is an OPTIONAL dummy or its derivative."""
    return bool(getattr(_primal(sym), "optional", False))


def _extent_arguments(extents, names, taken):
    """The wrapper's actual arguments for the extents, with the declarations and
    statements they need: size(a, dim), or for an OPTIONAL array a local that is 0 where
    the array is not present (size() of an absent dummy is not allowed)."""
    actuals, decls, stmts = [], [], []
    for e in extents:
        array, dim = e.extent_of
        if not getattr(array, "optional", False):
            actuals.append(_size_argument(e, names))
            continue
        local, k = f"{names.get(array, ir.source_name(array))}_size{dim}", 2
        while local.lower() in taken:
            local, k = f"{local}_{k}", k + 1
        taken.add(local.lower())
        decls.append(f"integer(c_int) :: {local}")
        stmts += [f"{local} = 0",
                  f"if (present({names.get(array, ir.source_name(array))})) "
                  f"{local} = {_size_argument(e, names)}"]
        actuals.append(local)
    return actuals, decls, stmts


def fortran_interface(unit):
    vector = getattr(unit, "vector", False)
    routines = []
    for f in exported(unit):
        name = f.name[:-1] if f.name.endswith("_") else f.name
        ret = f.ret.resolved()
        result = None if ret.is_void else _FORTRAN_KIND.get(getattr(ret, "name", ""),
                                                            "real(c_double)")
        extents = hidden_extents(f)
        names = fortran_names(f)
        # (COMPLEX dummies, structures of two reals, are interoperable as they are)
        types = [dt for p, dt in zip(f.params, map(_derived_type, f.params))
                 if dt is not None and _complex(p) is None]
        # CHARACTER dummies: a plain external interface, through which gfortran passes
        # their lengths after the other arguments, as the C routine takes them
        strings = any(map(_is_string, f.params))
        params = [p for p in f.params if getattr(p, "char_len_of", None) is None]
        routine = {"name": name, "symbol": f.name, "args": [names[p] for p in params],
                   "decls": [_dummy(p, names[p], vector) for p in params],
                   "result": result, "wrapper": None, "bind": not types and not strings,
                   "skipped": None, "uses": sorted({(dt.module, dt.name) for dt in types})}
        # A derived type (not interoperable) makes the interface a plain external one: the
        # symbol gfortran gives `name` is the C routine's, `name_`.
        if any(dt.module is None for dt in types):
            routine["skipped"] = "it takes a derived type defined in a procedure"
        elif (types or strings) and extents:
            routine["skipped"] = "it takes assumed-shape arrays and a derived type or a " \
                "CHARACTER string"
        if extents:
            # the C routine under another name; `name` is the module procedure calling it
            dummies = [p for p in f.params if p not in extents]
            routine["name"] = name + "_with_extents"
            sizes, locals_, stmts = _extent_arguments(
                extents, names, {names[p].lower() for p in dummies} | {name.lower()})
            routine["wrapper"] = {
                "name": name,
                "args": [names[p] for p in dummies],
                "decls": [f"{_kind(p)}{', optional' if _optional(p) else ''} :: "
                          f"{names[p]}{_dims(p, vector)}" for p in dummies] + locals_,
                "stmts": stmts,
                "actuals": [names[p] for p in dummies] + sizes}
        routines.append(routine)
    module = unit.output_stem + "_interface" if getattr(unit, "output_stem", None) \
        else "adgen_interface"
    text = env().get_template("fortran_interface.f90.j2").render(
        u=unit, module=module, routines=routines, variables=head_variables(unit, routines))
    return "\n".join(_continued(line) for line in text.split("\n"))


def _continued(line, width=100):
    """A statement longer than width split into continuation lines after the commas
    between its outermost parentheses (free form allows 132 characters a line)."""
    if len(line) <= width or line.lstrip().startswith("!"):
        return line
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    depth, cuts = 0, []
    for k, c in enumerate(line):
        depth += (c == "(") - (c == ")")
        if c == "," and depth == 1:
            cuts.append(k)
    out, start = [], 0
    for k, cut in enumerate(cuts):
        following = cuts[k + 1] if k + 1 < len(cuts) else len(line)
        if following - start + len(indent) > width:
            out.append(line[start:cut + 1] + " &")
            start = cut + 2
    return ("\n" + indent).join(out + [line[start:]])


def head_variables(unit, routines):
    """The derivatives of the module variables the heads name, as variables of the
    interface module bound to the output's C globals: [{name, symbol, kind, dims}]. The
    interface bodies import the module's names, so a dummy of the same name is refused."""
    out = []
    dummies = {a.lower() for r in routines for a in r["args"]}
    for d in unit.shadow_globals:
        s = d.sym
        if not getattr(s, "head_io", False):
            continue
        primal = s.primal
        name = ir.source_name(primal) + s.name[len(primal.name):]
        if name.lower() in dummies:
            raise AdgenError(f"the derivative of the module variable '{ir.source_name(primal)}'"
                             f" is '{name}' in the interface module, where a derivative "
                             "routine has a dummy of that name; rename one of them",
                             primal.loc)
        bounds = []
        for lower, extent in primal.fortran_dims:
            lo, n = X.constant_value(X.fold(lower)), X.constant_value(X.fold(extent))
            if not isinstance(lo, int) or not isinstance(n, int):
                raise AdgenError(f"the bounds of the module variable "
                                 f"'{ir.source_name(primal)}' are not constants adgen can "
                                 "state in the interface module", primal.loc)
            bounds.append(f"{lo}:{lo + n - 1}" if lo != 1 else f"{n}")
        elem = s.type.resolved()
        while isinstance(elem, ir.Arr):
            elem = elem.elem.resolved()
        out.append({"name": name, "symbol": s.name, "source": ir.source_name(primal),
                    "kind": _FORTRAN_KIND.get(getattr(elem, "name", ""), "real(c_double)"),
                    "dims": f"({', '.join(bounds)})" if bounds else ""})
    return out
