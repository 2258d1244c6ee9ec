"""The analysis of the head function for build(), from adgen's own front end: its parameters
and return value as the API passes them (kinds, element types, the cffi declarations of its
structs), the extents of its arrays and of the arrays its structs' pointer fields lead to,
and the integer expressions meta.json keeps them as (serialized from adgen's IR here,
evaluated over the arguments of each call).
"""
from __future__ import annotations

import numbers
import re

from adgen.api.options import BuildError

# ------------------------------------------------------------------------- the analysis

INT_DTYPES = {       # C integer type -> (signed, numpy kind)
    "char": (True, "i"), "signed char": (True, "i"), "unsigned char": (False, "u"),
    "short": (True, "i"), "unsigned short": (False, "u"),
    "int": (True, "i"), "unsigned": (False, "u"), "unsigned int": (False, "u"),
    "long": (True, "i"), "unsigned long": (False, "u"),
    "long long": (True, "i"), "unsigned long long": (False, "u"),
    "size_t": (False, "u"), "ptrdiff_t": (True, "i"), "_Bool": (False, "b"),
}
FLOAT_NAMES = ("double", "float", "long double")


class _Unsupported(Exception):
    pass


class NoEval(Exception):
    pass


def _ser(e):
    """An IR integer expression as nested lists (for meta.json); NoEval if it has a form
    the evaluator does not know."""
    from adgen import ir
    if isinstance(e, ir.Const):
        t = e.text.rstrip("uUlL")
        try:
            if re.fullmatch(r"0[0-7]+", t):
                return ["const", int(t, 8)]
            return ["const", int(t, 0)]
        except ValueError:
            raise NoEval(e.text)
    if isinstance(e, ir.Ref):
        return ["ref", e.sym.name]
    if isinstance(e, ir.Binary):
        return ["bin", e.op, _ser(e.left), _ser(e.right)]
    if isinstance(e, ir.Unary) and e.op in ("-", "+", "!", "~"):
        return ["un", e.op, _ser(e.arg)]
    if isinstance(e, ir.Call) and e.func in ("adgen_imax", "adgen_imin"):
        return ["call", e.func, [_ser(a) for a in e.args]]
    if isinstance(e, ir.Cast):
        return ["cast", _ser(e.arg)]
    if isinstance(e, ir.Member):
        return ["member", _ser(e.base), e.field]
    if isinstance(e, ir.Deref):
        return ["deref", _ser(e.ptr)]
    if isinstance(e, ir.Cond):
        return ["cond", _ser(e.test), _ser(e.then), _ser(e.other)]
    raise NoEval(type(e).__name__)


def _cdiv(a, b):
    if b == 0:
        raise NoEval("division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


_BINOPS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": _cdiv, "%": lambda a, b: a - _cdiv(a, b) * b,
    "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b, "&": lambda a, b: a & b,
    "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
    "<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b),
    "<=": lambda a, b: int(a <= b), ">=": lambda a, b: int(a >= b),
    "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
    "&&": lambda a, b: int(bool(a) and bool(b)), "||": lambda a, b: int(bool(a) or bool(b)),
}


def evaluate(node, env):
    op = node[0]
    if op == "const":
        return node[1]
    if op == "ref":
        if node[1] not in env:
            raise NoEval(node[1])
        return env[node[1]]
    if op == "bin":
        a, b = evaluate(node[2], env), evaluate(node[3], env)
        if not isinstance(a, int) or not isinstance(b, int):
            raise NoEval("not an integer")
        return _BINOPS[node[1]](a, b)
    if op == "un":
        a = evaluate(node[2], env)
        return {"-": -a, "+": a, "!": int(not a), "~": ~a}[node[1]]
    if op == "call":
        args = [evaluate(a, env) for a in node[2]]
        return max(args) if node[1] == "adgen_imax" else min(args)
    if op == "cast":
        v = evaluate(node[1], env)
        return int(v)
    if op == "member":
        base = evaluate(node[1], env)
        try:
            v = getattr(base, node[2])
        except Exception:
            raise NoEval(node[2])
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise NoEval(node[2])
        return int(v)
    if op == "deref":
        base = evaluate(node[1], env)
        if isinstance(base, numbers.Integral):     # a Fortran scalar given as a number
            return int(base)
        try:
            return int(base[0])
        except Exception:
            raise NoEval("deref")
    if op == "cond":
        return evaluate(node[2], env) if evaluate(node[1], env) else evaluate(node[3], env)
    raise NoEval(op)


def _prim_name(t):
    return " ".join(t.name.split())


def _computes_in_single(prog, f):
    """Whether f or a function it calls holds or computes a single-precision value (a
    float helper inside a double model): finite differences then need float's step and
    tolerance, whatever the types of the independents and dependents. What adgen check
    goes by when the derivative code is given, not generated (which tells whether such a
    value is on the way from the independents to the dependents: Activity.computes_in_single)."""
    from adgen import ir
    from adgen.analysis.call_graph import reachable_statements
    for s in reachable_statements(prog, f.name):
        for e in ir.stmt_exprs(s):
            for sub in ir.walk(e):
                if isinstance(sub, ir.Const):
                    continue    # (a default-real literal in double code: `2.0 * u(i)`)
                t = sub.type.resolved() if getattr(sub, "type", None) is not None else None
                if t is not None and t.is_float and getattr(t, "name", None) == "float":
                    return True
    return False


class Analysis:
    """The head function's interface, read from adgen's own front end: parameter kinds,
    types for the cffi declarations, and array extents."""

    def __init__(self, paths, dopts, func_name, setup=None):
        from adgen import ir
        from adgen.ir.c_text import declare
        from adgen.driver import drop_inactive_bodies, load_program
        from adgen.room import with_room
        self.ir = ir
        prog = with_room(load_program, paths, dopts)
        drop_inactive_bodies(prog, dopts)       # (as the derivative code calls them)
        f = prog.functions.get(func_name)
        if f is None or not f.has_body:
            raise BuildError(f"no definition of '{func_name}' in the sources")
        self.language = getattr(prog, "language", "c") or "c"
        self.fortran = self.language != "c"
        # a static head is reachable only from its own file: the glue module includes that
        # file instead of linking it (it then defines the program's types itself)
        self.static_file = f.loc.file if f.is_static and not self.fortran else None
        self.setup_symbol = self._setup_symbol(prog, setup) if setup else None
        assumed_shape = next((p for p in f.params if getattr(p, "extent_of", None)), None)
        if assumed_shape is not None:
            # gfortran's primal takes array descriptors, which the API does not build
            raise BuildError(f"'{func_name}' has the assumed-shape dummy argument "
                             f"'{assumed_shape.extent_of[0].name}': the Python API cannot "
                             "call it; differentiate a procedure with explicit-shape "
                             "dummies that calls it")
        # the primal's linker symbol: gfortran's (`name_`, `__mod_MOD_name`) for Fortran
        self.symbol = getattr(f, "link_name", None) or \
            (func_name + "_" if self.fortran else func_name)
        # typedef names of pointers the parameters are declared with (`typedef double
        # *vec;`): the derivative routines' prototypes spell them so too
        self.pointer_typedefs = set()
        for p in f.params:
            t = p.type
            while isinstance(t, (ir.Named, ir.Ptr, ir.Arr)):
                if isinstance(t, ir.Named):
                    if isinstance(t.resolved(), (ir.Ptr, ir.Arr)):
                        self.pointer_typedefs.add(t.name)
                    t = t.target
                else:
                    t = t.target if isinstance(t, ir.Ptr) else t.elem
        self.struct_decls = []          # cdef text, dependencies first
        self._struct_name = {}          # id(sdef) -> name used in the cdef
        self._typedefs_done = set()
        self.params = []
        for p in f.params:
            try:
                self.params.append(self._param(p))
            except _Unsupported as exc:
                raise BuildError(f"parameter '{p.name}' of {func_name} has type "
                                 f"{declare(p.type, '').strip() or '?'}, which the Python API "
                                 f"cannot pass ({exc})") from None
        try:
            self.ret = self._ret(f.ret)
        except _Unsupported as exc:
            raise BuildError(f"{func_name} returns {declare(f.ret, '').strip()}, which the "
                             f"Python API cannot return ({exc})") from None
        params = ", ".join(declare(p.type, p.name) for p in f.params) or "void"
        self.primal_proto = declare(f.ret, f"{self.symbol}({params})") + ";"
        self.type_text = list(prog.type_text)
        self.std_headers = list(prog.std_headers)
        self._extents(prog, f, dopts)
        self.single_inside = _computes_in_single(prog, f)

    # -- types --
    def _cdef_struct(self, t):
        """The cdef name of a struct type (a typedef name or `struct tag`), declaring it."""
        ir = self.ir
        typedef = None
        while isinstance(t, ir.Named):
            typedef = typedef or t.name
            t = t.target
        if not isinstance(t, ir.Struct):
            raise _Unsupported("not a struct")
        sdef = t.sdef
        if sdef.is_union:
            raise _Unsupported("a union")
        key = id(sdef)
        if key not in self._struct_name:
            if sdef.tag:
                self._struct_name[key] = f"struct {sdef.tag}"
                self.struct_decls.append(f"struct {sdef.tag};")
                fields = self._cdef_fields(sdef)
                self.struct_decls.append(f"struct {sdef.tag} {{ {fields} }};")
            elif typedef:
                self._struct_name[key] = typedef
                self._typedefs_done.add(typedef)
                fields = self._cdef_fields(sdef)
                self.struct_decls.append(f"typedef struct {{ {fields} }} {typedef};")
            else:
                raise _Unsupported("an anonymous struct without a typedef name")
        name = self._struct_name[key]
        if typedef and typedef not in self._typedefs_done:
            self._typedefs_done.add(typedef)
            self.struct_decls.append(f"typedef {name} {typedef};")
        return typedef or name

    def _cdef_fields(self, sdef):
        ir = self.ir
        out = []
        for fname, ftype in sdef.fields:
            try:
                r = ftype.resolved()
                if isinstance(r, ir.Prim) and (r.is_float or r.is_int):
                    out.append(f"{_prim_name(r)} {fname};")
                elif isinstance(r, ir.Struct):
                    out.append(f"{self._cdef_struct(ftype)} {fname};")
                elif isinstance(r, ir.Ptr):
                    tr = r.target.resolved()
                    const = "const " if r.target.const or getattr(tr, "const", False) else ""
                    if isinstance(tr, ir.Prim) and (tr.is_float or tr.is_int):
                        out.append(f"{const}{_prim_name(tr)} *{fname};")
                    elif isinstance(tr, ir.Struct):      # a handle's nested handle
                        out.append(f"{const}{self._cdef_struct(r.target)} *{fname};")
                elif isinstance(r, ir.Arr) and r.size is not None:
                    dims, elem = [], r
                    while isinstance(elem, ir.Arr) and elem.size is not None:
                        dims.append(evaluate(_ser(elem.size), {}))
                        et = elem.elem
                        elem = et.resolved()
                    if isinstance(elem, ir.Prim) and (elem.is_float or elem.is_int):
                        base = _prim_name(elem)
                    elif isinstance(elem, ir.Struct):        # an array of structs
                        base = self._cdef_struct(et)
                    else:
                        raise _Unsupported("an array of other things")
                    out.append(f"{base} {fname}{''.join(f'[{n}]' for n in dims)};")
            except (_Unsupported, NoEval):
                pass            # left to the `...;`: the C compiler knows the layout
        out.append("...;")
        return " ".join(out)

    def _setup_symbol(self, prog, name):
        """The linker symbol of the set-up function `name` (build's setup=): a function of
        the sources without parameters, called before every call of the routines."""
        g = prog.functions.get(name) or prog.functions.get(name.lower())
        if g is None or not g.has_body:
            raise BuildError(f"setup={name!r}: no function of that name in the sources")
        if g.params:
            raise BuildError(f"setup={name!r}: the set-up function must take no arguments "
                             f"('{name}' takes {len(g.params)})")
        if g.is_static and not self.fortran:
            raise BuildError(f"setup={name!r}: '{name}' is static, so no other file can call "
                             "it; declare it without 'static'")
        return getattr(g, "link_name", None) or (g.name + "_" if self.fortran else g.name)

    def _param(self, p):
        ir = self.ir
        t = p.type.resolved()
        d = {"name": p.name, "const": False, "extent": None, "extent_text": None}
        if getattr(p, "char_len_of", None) is not None:
            # the length of a CHARACTER dummy, after all the other arguments
            return dict(d, kind="length", elem="size_t", cdef="size_t",
                        of=p.char_len_of.name)
        if isinstance(t, ir.Prim):
            if t.is_float:
                return dict(d, kind="real", elem=_prim_name(t), cdef=_prim_name(t))
            if t.is_int and _prim_name(t) in INT_DTYPES:
                return dict(d, kind="int", elem=_prim_name(t), cdef=_prim_name(t))
            raise _Unsupported(f"{t.name} by value")
        if isinstance(t, (ir.Ptr, ir.Arr)):
            # a Fortran scalar dummy argument: a pointer to one value
            d["scalar_ref"] = bool(self.fortran and getattr(p, "fortran_array", None) is False)
            target = ir.pointee(t)
            tr = target.resolved()
            const = bool(target.const or tr.const)
            if self.fortran and isinstance(tr, ir.Prim) and tr.name == "char":
                # a CHARACTER dummy: a Python str (its length is passed apart, `length`)
                return dict(d, kind="string", elem="char", cdef="char *")
            if isinstance(tr, ir.Prim) and (tr.is_float or
                                            (tr.is_int and _prim_name(tr) in INT_DTYPES)):
                e = _prim_name(tr)
                return dict(d, kind="array", elem=e, cdef=f"{e} *", const=const)
            row, inner = None, tr
            while isinstance(inner, ir.Arr) and inner.size is not None:
                row = inner.size if row is None else ir.Binary("*", row, inner.size, ir.INT)
                inner = inner.elem.resolved()
            if row is not None and isinstance(inner, ir.Prim) and inner.is_float:
                # a C99 array of rows (`double A[n][m]`, `double (*A)[m]`): a flat array of
                # numbers, passed as the address of its first row (void *: cffi cannot
                # declare a variably-modified type); its extents count rows
                try:
                    numbers = _ser(row)
                except NoEval:
                    raise _Unsupported("rows of a length the API cannot evaluate") from None
                e = _prim_name(inner)
                from adgen.ir.c_text import expr_c
                return dict(d, kind="array", elem=e, cdef="void *", const=const, row=numbers,
                            row_text=expr_c(row))
            if isinstance(tr, ir.Struct):
                name = self._cdef_struct(target)
                return dict(d, kind="struct_ptr", elem=name, cdef=f"{name} *", const=const)
            row = tr.target.resolved() if isinstance(tr, ir.Ptr) else None
            if isinstance(row, ir.Prim) and row.is_float and not self.fortran:
                # row pointers (`double **rows`): a 2-D array, passed as pointers to its rows
                # its qualifiers kept: `double **` does not convert to `const double **`
                from adgen.ir.c_text import declare
                e = _prim_name(row)
                # (a typedef of the row pointer, `frame_t *`, spelt out: cffi knows none)
                return dict(d, kind="array", elem=e, cdef=declare(ir.Ptr(tr), "").strip(),
                            const=const, rows=True)
            raise _Unsupported("a pointer to something other than numbers, a struct or rows "
                               "of numbers")
        if isinstance(t, ir.Struct):
            name = self._cdef_struct(p.type)
            return dict(d, kind="struct", elem=name, cdef=name)
        raise _Unsupported("not a number, array or struct")

    def _ret(self, t):
        ir = self.ir
        r = t.resolved()
        if isinstance(r, ir.Prim):
            if r.is_void:
                return {"kind": "void", "cdef": "void"}
            if r.is_float:
                return {"kind": "real", "cdef": _prim_name(r)}
            if r.is_int and _prim_name(r) in INT_DTYPES:
                return {"kind": "int", "cdef": _prim_name(r)}
        if isinstance(r, ir.Ptr):
            return {"kind": "pointer", "cdef": "void *"}
        if isinstance(r, ir.Struct):
            return {"kind": "struct", "cdef": self._cdef_struct(t)}
        raise _Unsupported("an unsupported type")

    # -- extents --
    def _extents(self, prog, f, dopts):
        """For each array parameter, the number of elements the code touches, as an
        expression over the parameters (the user's `sizes`, the declared size of a Fortran
        explicit-shape array, or what adgen's own extent analysis finds), as the
        derivative code sizes it. Best effort: unknown extents are not checked."""
        from adgen.ir.c_text import expr_c
        from adgen.frontend.fortran_front import declared_size
        # (a pointer to structs too: the API passes one struct, and checks the code uses one)
        arrays = [p for p in self.params if p["kind"] in ("array", "struct_ptr")]
        structs = [p for p in self.params if p["kind"] in ("struct", "struct_ptr")]
        if not arrays and not structs:
            return
        syms = {s.name: s for s in f.params}
        for p in arrays:
            if p["name"] in dopts.sizes:
                try:
                    from adgen.frontend.c_front import expand_macros, parse_expr_in_scope
                    e = parse_expr_in_scope(expand_macros(
                        dopts.sizes[p["name"]], getattr(prog, "macros", {}),
                        {q.name for q in f.params}), f.params)
                    p["extent"], p["extent_text"] = _ser(e), dopts.sizes[p["name"]]
                except Exception:
                    pass
            elif declared_size(syms[p["name"]], f) is not None:
                # `x(5)`, `q(n, n)` (bounds over the parameters): the derivative code uses
                # all the declared elements (an adjoint sets them all), whatever the body
                # indexes
                e = declared_size(syms[p["name"]], f)
                try:
                    # shown with the Fortran names: `n * n`, not `*n * *n`
                    text = re.sub(r"\*(?=[A-Za-z_])", "", expr_c(e))
                    p["extent"], p["extent_text"] = _ser(e), text
                    p["extent_declared"] = True
                except NoEval:
                    pass
            elif "row" in p and getattr(syms[p["name"]], "declared_extent", None) is not None:
                # `double A[n][m]`: the n rows it declares
                rows = syms[p["name"]].declared_extent
                try:
                    p["extent"] = ["bin", "*", _ser(rows), p["row"]]
                    p["extent_text"] = f"{expr_c(rows)} rows of {p['row_text']}"
                except NoEval:
                    pass
        try:
            from adgen.analysis.extent import ExtentAnalysis
            from adgen.analysis.call_graph import reachable
            from adgen.transform.normalize import normalize_program, structure_program
            funcs = [n for n in reachable(prog, [f.name]) if prog.functions[n].has_body]
            normalize_program(prog, funcs)
            structure_program(prog, funcs)
            ea = ExtentAnalysis(prog)
        except Exception:
            return
        # a parameter the function moves (f2c's `--x;`) is now a new one of the same name
        syms = {s.name: s for s in f.params}
        for p in arrays:
            if p["extent"] is not None:
                continue
            try:
                from adgen.analysis.extent import add_ints, int_const
                n = add_ints(ea.max_index(f, syms[p["name"]]), int_const(1))
                p["extent"], p["extent_text"] = _ser(n), expr_c(n)
                if "row" in p:      # counted in rows: the numbers are rows times a row's
                    p["extent"] = ["bin", "*", p["extent"], p["row"]]
                    p["extent_text"] = f"{p['extent_text']} rows of {p['row_text']}"
            except Exception:   # Unknown, or anything unexpected: not checked
                continue
        # the arrays a struct's pointer fields lead to (`m->x`, `m->mat->k`): their extents,
        # as adgen's analysis finds them, keyed by the field path ("x", "mat.k")
        for p in structs:
            out = {}
            for path in self._pointer_paths(syms[p["name"]].type):
                try:
                    from adgen.analysis.extent import add_ints, int_const
                    n = add_ints(ea.max_index(f, syms[p["name"]], path), int_const(1))
                    out[".".join(path)] = [_ser(n), expr_c(n)]
                except Exception:       # Unknown, or anything unexpected: not checked
                    continue
            if out:
                p["field_extents"] = out

    def _pointer_paths(self, t, prefix=(), seen=()):
        """The field paths of struct (or pointer to struct) type t that lead to pointers to
        numbers, through nested structs and pointers to structs."""
        ir = self.ir
        r = t.resolved()
        if isinstance(r, ir.Ptr):
            r = r.target.resolved()
        if not isinstance(r, ir.Struct) or id(r.sdef) in seen or len(prefix) > 8:
            return []
        seen = seen + (id(r.sdef),)
        out = []
        for fname, ftype in r.sdef.fields:
            fr = ftype.resolved()
            if isinstance(fr, ir.Ptr):
                tr = fr.target.resolved()
                if isinstance(tr, ir.Prim) and (tr.is_float or tr.is_int):
                    out.append(prefix + (fname,))
                elif isinstance(tr, ir.Struct):
                    out += self._pointer_paths(fr, prefix + (fname,), seen)
            elif isinstance(fr, ir.Struct):
                out += self._pointer_paths(fr, prefix + (fname,), seen)
        return out
