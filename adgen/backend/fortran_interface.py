"""Companions of the C output for Fortran callers: a C header with the prototypes of the
exported routines, and a Fortran module of interfaces (bind(C) to the same symbols) that
callers may `use` to have their calls checked."""
from adgen import ir
from adgen.backend.cgen import env, signature

_FORTRAN_KIND = {"double": "real(c_double)", "float": "real(c_float)", "int": "integer(c_int)",
                 "long": "integer(c_long)", "long double": "real(c_long_double)"}


def exported(unit):
    return [f for f in unit.functions if not f.is_static]


def c_header(unit):
    return env().get_template("fortran_header.h.j2").render(
        u=unit, prototypes=[signature(f) for f in exported(unit)])


def _is_array(sym):
    primal = getattr(sym, "primal", None) or sym
    return bool(getattr(primal, "fortran_array", False))


def _dummy(sym):
    t = sym.type.resolved()
    base = t.target.resolved() if isinstance(t, ir.Ptr) else t
    kind = _FORTRAN_KIND.get(getattr(base, "name", ""), None)
    if kind is None:
        kind = "integer(c_int)"
    if not isinstance(t, ir.Ptr):
        return f"{kind}, value :: {sym.name}"
    return f"{kind} :: {sym.name}" + ("(*)" if _is_array(sym) else "")


def fortran_interface(unit):
    routines = []
    for f in exported(unit):
        name = f.name[:-1] if f.name.endswith("_") else f.name
        ret = f.ret.resolved()
        result = None if ret.is_void else _FORTRAN_KIND.get(getattr(ret, "name", ""),
                                                            "real(c_double)")
        routines.append({"name": name, "symbol": f.name,
                         "args": [p.name for p in f.params],
                         "decls": [_dummy(p) for p in f.params], "result": result})
    module = unit.output_stem + "_interface" if getattr(unit, "output_stem", None) \
        else "adgen_interface"
    return env().get_template("fortran_interface.f90.j2").render(
        u=unit, module=module, routines=routines)
