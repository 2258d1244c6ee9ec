"""The Python API: differentiate C (and, once its front end exists, Fortran) from Python,
and build the primal with its derivatives into a module you call with numpy arrays.

    adgen.differentiate(sources, head=..., mode="reverse") -> str    the generated C
    adgen.build(sources, head=...) -> Built       .primal .gradient .vjp .jvp .jacobian

`build` differentiates in reverse, tangent and (when adgen accepts the program) vector
tangent mode, compiles the primal sources as they are, the generated files and a cffi
glue module (cffi's out-of-line API mode, compiled and linked by gcc), and caches the
result by content under $ADGEN_CACHE (default ~/.cache/adgen). See docs/python-api.md.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import numbers
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

try:                        # differentiate() works without numpy; build() needs it
    import numpy as np
except ImportError:         # pragma: no cover
    np = None

from adgen.version import __version__
from adgen.errors import AdgenError

__all__ = ["differentiate", "build", "Built", "BuildError", "AdgenError", "cache_dir"]

FORTRAN_SUFFIXES = (".f90", ".f95", ".f03", ".f08", ".f", ".f77", ".for")
OPTION_NAMES = ("include_dirs", "defines", "inactive", "sizes", "vector", "language")
BUILD_OPTION_NAMES = OPTION_NAMES + ("cflags", "ldflags", "derivative_files", "cache_dir",
                                     "setup",
                                     "rebuild")
_CACHE_LAYOUT = 1           # bump when the layout of a cache entry changes


class BuildError(RuntimeError):
    """Compiling or linking the primal, the derivatives or the glue module failed (the
    message has the command and the compiler's output), or the head uses a parameter type
    the Python API cannot pass."""


# ------------------------------------------------------------------------ options, sources

@dataclass
class _Source:
    kind: str               # 'path' | 'text'
    value: str              # absolute path, or the source text
    suffix: str = ".c"

    @property
    def is_fortran(self):
        name = self.value if self.kind == "path" else "x" + self.suffix
        return name.lower().endswith(FORTRAN_SUFFIXES)


def _sources(sources, language="c"):
    """A path, a list of paths, or source text (a string with a newline)."""
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    try:
        items = list(sources)
    except TypeError:
        raise TypeError(f"sources: expected a path, a list of paths or source text, "
                        f"got {type(sources).__name__}") from None
    if not items:
        raise ValueError("sources: no source given")
    out = []
    for s in items:
        if isinstance(s, str) and "\n" in s:
            if language not in ("c", "fortran"):
                raise ValueError(f"language: expected 'c' or 'fortran', got {language!r}")
            out.append(_Source("text", s, ".c" if language == "c" else ".f90"))
        elif isinstance(s, (str, os.PathLike)):
            out.append(_Source("path", os.path.abspath(os.fspath(s))))
        else:
            raise TypeError(f"sources: expected paths or source text, got "
                            f"{type(s).__name__}")
    return out


def _str_list(name, value):
    if value is None:
        return []
    if isinstance(value, (str, os.PathLike)):
        return [os.fspath(value)]
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{name}: expected a list of strings, got {type(value).__name__}") \
            from None
    for v in items:
        if not isinstance(v, (str, os.PathLike)):
            raise TypeError(f"{name}: expected strings, got {type(v).__name__}")
    return [os.fspath(v) for v in items]


def _options(options, allowed):
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TypeError(f"unknown option{'s' if len(unknown) > 1 else ''} "
                        f"{', '.join(map(repr, unknown))} (options: {', '.join(allowed)})")
    o = dict(options)
    o["include_dirs"] = [os.path.abspath(d) for d in _str_list("include_dirs",
                                                                o.get("include_dirs"))]
    defines = o.get("defines") or []
    if isinstance(defines, dict):
        defines = [k if v is None else f"{k}={v}" for k, v in defines.items()]
    o["defines"] = _str_list("defines", defines)
    o["inactive"] = _str_list("inactive", o.get("inactive"))
    sizes = o.get("sizes") or {}
    if not isinstance(sizes, dict):
        raise TypeError(f"sizes: expected a dict NAME -> C expression, got "
                        f"{type(sizes).__name__}")
    o["sizes"] = {str(k): str(v) for k, v in sizes.items()}
    o["language"] = o.get("language", "c")
    return o


def _heads(head):
    if head is None:
        return []
    if isinstance(head, str):
        return [head]
    heads = list(head)
    if not all(isinstance(h, str) for h in heads):
        raise TypeError("head: expected a string like 'f(y)/(x)' or a list of them")
    return heads


def _driver_options(o, mode, vector, heads, extra_includes=()):
    from adgen.driver import Options
    return Options(mode=mode, vector=vector, heads=heads,
                   include_dirs=list(o["include_dirs"]) + list(extra_includes),
                   defines=list(o["defines"]), inactive=list(o["inactive"]),
                   sizes=dict(o["sizes"]))


def _materialize(sources, directory):
    """Paths of the sources, text sources written into `directory`."""
    paths = []
    for i, s in enumerate(sources):
        if s.kind == "path":
            paths.append(s.value)
        else:
            p = os.path.join(directory, f"source{i}{s.suffix}" if i else f"source{s.suffix}")
            with open(p, "w") as fh:
                fh.write(s.value)
            paths.append(p)
    return paths


def _mode(mode):
    m = {"reverse": "reverse", "adjoint": "reverse", "b": "reverse",
         "forward": "forward", "tangent": "forward", "d": "forward"}.get(mode)
    if m is None:
        raise ValueError(f"mode: expected 'reverse' or 'forward', got {mode!r}")
    return m


def differentiate(sources, head=None, mode="reverse", **options) -> str:
    """The C text adgen generates for `sources` (a path, a list of paths, or C source text:
    a string containing a newline). head: 'f(y)/(x)', a list of them, or None for adgen's
    default heads. Options: include_dirs, defines (list or dict), inactive, sizes (dict
    NAME -> C expression), vector (forward mode only), language ('c' or 'fortran', for
    source text). Raises AdgenError when adgen refuses the input."""
    from adgen.driver import differentiate as _differentiate
    o = _options(options, OPTION_NAMES)
    mode = _mode(mode)
    vector = bool(o.get("vector", False))
    if vector and mode != "forward":
        raise ValueError("vector=True goes with mode='forward'")
    srcs = _sources(sources, o["language"])
    extra = [os.getcwd()] if any(s.kind == "text" for s in srcs) else []
    with tempfile.TemporaryDirectory(prefix="adgen-") as tmp:
        paths = _materialize(srcs, tmp)
        with _text_locations(srcs, paths):
            return _differentiate(paths, _driver_options(o, mode, vector, _heads(head), extra))


@contextlib.contextmanager
def _text_locations(srcs, paths):
    """Errors in source text given as a string name it `<source text>` (or `<source text
    N>`), not the temporary file it was written to."""
    try:
        yield
    except AdgenError as exc:
        names = {p: ("<source text>" if i == 0 else f"<source text {i}>")
                 for i, (s, p) in enumerate(zip(srcs, paths)) if s.kind == "text"}
        if exc.loc is not None and exc.loc.file in names:
            import dataclasses
            exc.loc = dataclasses.replace(exc.loc, file=names[exc.loc.file])
        raise


# ------------------------------------------------------------------------------ the cache

def cache_dir(path=None) -> Path:
    """Where built modules are kept: `path`, else $ADGEN_CACHE, else
    $XDG_CACHE_HOME/adgen, else ~/.cache/adgen."""
    if path is None:
        path = os.environ.get("ADGEN_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
            "adgen")
    return Path(path).expanduser().resolve()


@lru_cache(maxsize=1)
def _adgen_fingerprint():
    """adgen's version and the hash of its own files: a changed adgen rebuilds."""
    h = hashlib.sha256(__version__.encode())
    root = Path(__file__).resolve().parent
    for p in sorted(root.rglob("*")):
        if p.suffix in (".py", ".j2", ".h") and "__pycache__" not in p.parts:
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)


def _included_files(path, text, include_dirs):
    """Local headers a source includes (recursively): those found beside the including
    file or in include_dirs. System headers are not followed."""
    out, seen, todo = [], set(), [(path, text)]
    while todo:
        cur, data = todo.pop()
        for m in _INCLUDE.finditer(data):
            name = m.group(2).decode(errors="replace").strip()
            dirs = ([os.path.dirname(cur)] if m.group(1) == b'"' else []) + list(include_dirs)
            for d in dirs:
                cand = os.path.abspath(os.path.join(d, name))
                if os.path.isfile(cand):
                    if cand not in seen:
                        seen.add(cand)
                        with open(cand, "rb") as fh:
                            content = fh.read()
                        out.append((cand, content))
                        todo.append((cand, content))
                    break
    return out


def _cache_key(srcs, head, o):
    h = hashlib.sha256()

    def put(*items):
        for it in items:
            h.update(repr(it).encode() + b"\0")

    put("adgen-build", _CACHE_LAYOUT, _adgen_fingerprint(), sys.implementation.cache_tag,
        sys.platform, _cffi_version(), os.environ.get("CC", "gcc"),
        os.environ.get("FC", "gfortran"), head)
    for k in ("include_dirs", "defines", "inactive", "cflags", "ldflags"):
        put(k, o.get(k) or [])
    put("setup", o.get("setup"))
    put("sizes", sorted(o["sizes"].items()), "vector", bool(o.get("vector", True)))
    incs = list(o["include_dirs"])
    for s in srcs:
        if s.kind == "path":
            try:
                with open(s.value, "rb") as fh:
                    data = fh.read()
            except OSError:
                data = b""         # differentiate() reports the missing file
            put("path", s.value, hashlib.sha256(data).hexdigest())
        else:
            data = s.value.encode()
            put("text", s.suffix, hashlib.sha256(data).hexdigest())
            incs = incs + [os.getcwd()]
        for dep, content in _included_files(s.value if s.kind == "path" else
                                            os.path.join(os.getcwd(), "source.c"), data, incs):
            put("include", dep, hashlib.sha256(content).hexdigest())
    for mode, path in sorted((o.get("derivative_files") or {}).items()):
        with open(path, "rb") as fh:
            put("derivative", mode, hashlib.sha256(fh.read()).hexdigest())
    return h.hexdigest()[:32]


def _cffi_version():
    try:
        import cffi
        return cffi.__version__
    except ImportError:     # pragma: no cover
        return None


# ------------------------------------------------------------------------- the analysis

_INT_DTYPES = {       # C integer type -> (signed, numpy kind)
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


class _NoEval(Exception):
    pass


def _ser(e):
    """An IR integer expression as nested lists (for meta.json); _NoEval if it has a form
    the evaluator does not know."""
    from adgen import ir
    if isinstance(e, ir.Const):
        t = e.text.rstrip("uUlL")
        try:
            if re.fullmatch(r"0[0-7]+", t):
                return ["const", int(t, 8)]
            return ["const", int(t, 0)]
        except ValueError:
            raise _NoEval(e.text)
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
    raise _NoEval(type(e).__name__)


def _cdiv(a, b):
    if b == 0:
        raise _NoEval("division by zero")
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


def _eval(node, env):
    op = node[0]
    if op == "const":
        return node[1]
    if op == "ref":
        if node[1] not in env:
            raise _NoEval(node[1])
        return env[node[1]]
    if op == "bin":
        a, b = _eval(node[2], env), _eval(node[3], env)
        if not isinstance(a, int) or not isinstance(b, int):
            raise _NoEval("not an integer")
        return _BINOPS[node[1]](a, b)
    if op == "un":
        a = _eval(node[2], env)
        return {"-": -a, "+": a, "!": int(not a), "~": ~a}[node[1]]
    if op == "call":
        args = [_eval(a, env) for a in node[2]]
        return max(args) if node[1] == "adgen_imax" else min(args)
    if op == "cast":
        v = _eval(node[1], env)
        return int(v)
    if op == "member":
        base = _eval(node[1], env)
        try:
            v = getattr(base, node[2])
        except Exception:
            raise _NoEval(node[2])
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise _NoEval(node[2])
        return int(v)
    if op == "deref":
        base = _eval(node[1], env)
        if isinstance(base, numbers.Integral):     # a Fortran scalar given as a number
            return int(base)
        try:
            return int(base[0])
        except Exception:
            raise _NoEval("deref")
    if op == "cond":
        return _eval(node[2], env) if _eval(node[1], env) else _eval(node[3], env)
    raise _NoEval(op)


def _prim_name(t):
    return " ".join(t.name.split())


def _computes_in_single(prog, f):
    """Whether f or a function it calls holds or computes a single-precision value (a
    float helper inside a double model): finite differences then need float's step and
    tolerance, whatever the types of the independents and dependents."""
    from adgen import ir
    from adgen.analysis.call_graph import reachable_statements
    for s in reachable_statements(prog, f.name):
        for e in ir.stmt_exprs(s):
            for sub in ir.walk(e):
                t = sub.type.resolved() if getattr(sub, "type", None) is not None else None
                if t is not None and t.is_float and getattr(t, "name", None) == "float":
                    return True
    return False


class _Analysis:
    """The head function's interface, read from adgen's own front end: parameter kinds,
    types for the cffi declarations, and array extents."""

    def __init__(self, paths, dopts, func_name, setup=None):
        from adgen import ir
        from adgen.ir.c_text import declare
        from adgen.driver import load_program
        self.ir = ir
        prog = load_program(paths, dopts)
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
                        dims.append(_eval(_ser(elem.size), {}))
                        et = elem.elem
                        elem = et.resolved()
                    if isinstance(elem, ir.Prim) and (elem.is_float or elem.is_int):
                        base = _prim_name(elem)
                    elif isinstance(elem, ir.Struct):        # an array of structs
                        base = self._cdef_struct(et)
                    else:
                        raise _Unsupported("an array of other things")
                    out.append(f"{base} {fname}{''.join(f'[{n}]' for n in dims)};")
            except (_Unsupported, _NoEval):
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
            if t.is_int and _prim_name(t) in _INT_DTYPES:
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
                                            (tr.is_int and _prim_name(tr) in _INT_DTYPES)):
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
                except _NoEval:
                    raise _Unsupported("rows of a length the API cannot evaluate") from None
                e = _prim_name(inner)
                from adgen.ir.c_text import expr_c
                return dict(d, kind="array", elem=e, cdef="void *", const=const, row=numbers,
                            row_text=expr_c(row))
            if isinstance(tr, ir.Struct):
                name = self._cdef_struct(target)
                return dict(d, kind="struct_ptr", elem=name, cdef=f"{name} *", const=const)
            raise _Unsupported("a pointer to something other than numbers or a struct")
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
            if r.is_int and _prim_name(r) in _INT_DTYPES:
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
                except _NoEval:
                    pass
            elif "row" in p and getattr(syms[p["name"]], "declared_extent", None) is not None:
                # `double A[n][m]`: the n rows it declares
                rows = syms[p["name"]].declared_extent
                try:
                    p["extent"] = ["bin", "*", _ser(rows), p["row"]]
                    p["extent_text"] = f"{expr_c(rows)} rows of {p['row_text']}"
                except _NoEval:
                    pass
        try:
            from adgen.analysis.extent import ExtentAnalysis, Unknown
            from adgen.analysis.call_graph import reachable
            from adgen.transform.normalize import normalize_program, structure_program
            funcs = [n for n in reachable(prog, [f.name]) if prog.functions[n].has_body]
            normalize_program(prog, funcs)
            structure_program(prog, funcs)
            ea = ExtentAnalysis(prog)
        except Exception:
            return
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


# ------------------------------------------------------------------- generated prototypes

def _heads_line(text):
    m = re.search(r"^\s*\*\s*Heads:\s*(.*)$", text, re.M)
    return m.group(1) if m else ""


def _resolved_head(texts, name):
    """dependents, independents of head `name` from the `Heads:` line of generated files."""
    from adgen.frontend.heads import parse_head
    for text in texts:
        for spec in re.findall(r"[A-Za-z_]\w*\([^()]*\)/\([^()]*\)", _heads_line(text)):
            n, dep, indep = parse_head(spec)
            if n == name:
                return dep or [], indep or []
    return None


def _find_proto(text, candidates):
    """(symbol, return type text, [parameter texts]) of the first candidate defined in
    the generated text."""
    for sym in candidates:
        # (a parameter list may hold one level of parentheses: `double (*A)[m]`)
        m = re.search(rf"^([^\n;{{}}#]*?)\b{re.escape(sym)}\s*\(((?:[^()]|\([^()]*\))*)\)\s*\{{",
                      text, re.M)
        if m:
            params = [p.strip() for p in m.group(2).split(",")]
            if params == ["void"]:
                params = []
            return sym, m.group(1).strip(), params, m.group(0)[:-1].strip() + ";"
    return None


def _is_pointer_text(decl):
    return "*" in decl or "[" in decl


# ------------------------------------------------------------------------- the build

def _run_jobs(jobs):
    """Run compile commands in parallel; BuildError with the first failure's output."""
    procs = []
    for cmd, what in jobs:
        try:
            procs.append((subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True, errors="replace"), cmd, what))
        except OSError as exc:
            for p, _, _ in procs:
                p.kill()
            raise BuildError(f"{what}: cannot run {cmd[0]} ({exc})") from None
    failures = []
    for p, cmd, what in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            text = (err + out).strip()
            if len(text) > 6000:
                text = text[:6000] + "\n..."
            failures.append(f"{what} failed (exit {p.returncode}):\n  $ "
                            f"{' '.join(cmd)}\n{text}")
    if failures:
        raise BuildError("\n".join(failures))


def _flags(o):
    return [f"-I{d}" for d in o["include_dirs"]] + [f"-D{d}" for d in o["defines"]]


def _build_into(work, srcs, head, o):
    """Differentiate, compile and link into directory `work`; returns the meta dict."""
    from adgen.frontend.heads import parse_head
    # $CC and $FC are command lines: `gcc -m64`, `ccache gcc`
    cc = shlex.split(os.environ.get("CC") or "gcc")
    fc = shlex.split(os.environ.get("FC") or "gfortran")
    func, dep, indep = parse_head(head)
    paths = _materialize(srcs, work)
    with _text_locations(srcs, paths):
        return _build_steps(work, srcs, paths, head, func, dep, indep, o, cc, fc)


def _build_steps(work, srcs, paths, head, func, dep, indep, o, cc, fc):
    import cffi
    from adgen.driver import differentiate as _differentiate
    extra_inc = [os.getcwd()] if any(s.kind == "text" for s in srcs) else []
    o = dict(o, include_dirs=list(o["include_dirs"]) + extra_inc)
    given = o.get("derivative_files") or {}
    texts, vector_error = {}, None
    for mode in ("reverse", "forward", "vector"):
        if mode in given:
            with open(given[mode]) as fh:
                texts[mode] = fh.read()
            continue
        if mode == "vector" and not o.get("vector", True):
            vector_error = "vector mode not requested (vector=False)"
            continue
        dmode = "reverse" if mode == "reverse" else "forward"
        try:
            texts[mode] = _differentiate(paths, _driver_options(o, dmode, mode == "vector",
                                                                [head]))
        except AdgenError as exc:
            if mode != "vector":
                raise
            vector_error = str(exc)
        except Exception as exc:        # an internal error of vector mode: keep the rest
            if mode != "vector":
                raise
            vector_error = f"internal error in adgen ({type(exc).__name__}: {exc})"
    an = _Analysis(paths, _driver_options(o, "reverse", False, [head]), func, o.get("setup"))
    if dep is None or indep is None:
        got = _resolved_head([texts[m] for m in ("reverse", "forward", "vector") if m in texts],
                             func)
        if got is None:
            raise BuildError(f"cannot tell the dependents and independents of head '{head}': "
                             "give them, as in 'f(y)/(x)'")
        dep = dep if dep is not None else got[0]
        indep = indep if indep is not None else got[1]
    params = an.params
    names = [p["name"] for p in params]
    for p in params:
        i, d = p["name"] in indep, p["name"] in dep
        p["role"] = "inout" if i and d else "in" if i else "out" if d else None
        if p["role"] and not (p["kind"] in ("real", "array") and p["elem"] in FLOAT_NAMES or
                              p["kind"] in ("struct", "struct_ptr")):
            raise BuildError(f"'{p['name']}' is a {'dependent' if d else 'independent'} of "
                             f"{func} but not a floating-point scalar or array or a struct: "
                             "the Python API supports float/double scalars and arrays, and "
                             "structs of them, as independents and dependents")
    for n in dep + indep:
        if n not in names and n != func:
            raise BuildError(f"head '{head}' names '{n}', which is not a parameter of {func}")
    ret_active = func in dep
    if ret_active and an.ret["kind"] != "real":
        raise BuildError(f"head '{head}': {func} does not return a floating-point value")

    # The derivative routines' prototypes: found in the generated text, checked against
    # the convention (docs/conventions.md) so that a mismatch cannot crash the process.
    rcdef = an.ret["cdef"]
    expect = {"reverse": [], "forward": [], "vector": []}
    for p in params:
        if p["kind"] == "length":
            continue            # last of all (below)
        for mode in expect:
            expect[mode].append((p["name"], p["cdef"],
                                 p["kind"] in ("array", "struct_ptr", "string")))
        if p["role"]:
            e = p["elem"]
            if p["kind"] in ("array", "struct_ptr"):
                # (rows of an array: `void *` as the array's own, see _param)
                for mode in expect:
                    expect[mode].append((p["name"] + "'", "void *" if "row" in p else
                                         f"{e} *", True))
            else:
                expect["reverse"].append((p["name"] + "'", f"{e} *", True))
                expect["forward"].append((p["name"] + "'", e, False))
                expect["vector"].append((p["name"] + "'", f"{e} *", True))
    fortran = an.fortran
    if ret_active:      # the seed of the result: by value in C, by reference for Fortran
        expect["reverse"].append((func + "'", f"{rcdef} *" if fortran else rcdef, fortran))
        expect["forward"].append((func, f"{rcdef} *", True))
        expect["vector"].append((func + "'", f"{rcdef} *", True))
    # the number of directions: by value in C, by reference for Fortran
    expect["vector"].append(("nbdirs", "int *" if fortran else "int", fortran))
    for p in params:
        if p["kind"] == "length":
            for mode in expect:
                expect[mode].append((p["name"], p["cdef"], False))
    rets = {"reverse": "void", "forward": rcdef, "vector": rcdef}
    suffix = {"reverse": "_b", "forward": "_d", "vector": "_dv"}
    symbols, protos = {}, []
    for mode, text in texts.items():
        base = func + suffix[mode]
        found = _find_proto(text, [base, base + "_"])
        if found is None:
            raise BuildError(f"the {mode}-mode file does not define {base}")
        sym, _ret, plist, proto = found
        want = expect[mode]
        if len(plist) != len(want) or any(_is_pointer_text(d) != w[2]
                                           for d, w in zip(plist, want)):
            raise BuildError(f"{sym} has the prototype\n  {proto}\nwhich does not follow "
                             f"docs/conventions.md for head {head} (expected parameters: "
                             f"{', '.join(n for n, _, _ in want)})")
        symbols[mode] = sym
        protos.append(proto)
    files = {}
    for mode, text in texts.items():
        fname = f"{func}{suffix[mode]}.c"
        with open(os.path.join(work, fname), "w") as fh:
            fh.write(text)
        files[mode] = fname

    # cffi declarations (types simplified: const dropped, typedefs of numbers resolved)
    def decl_list(items):
        return ", ".join(f"{t} a{i}" for i, (_, t, _) in enumerate(items)) or "void"
    cdef = list(an.struct_decls)
    cdef.append(f"{rcdef} {an.symbol}({decl_list([(p['name'], p['cdef'], 0) for p in params])});")
    for mode in texts:
        ret = rets[mode]
        cdef.append(f"{ret} {symbols[mode]}({decl_list(expect[mode])});")
    setup = [f"void {an.setup_symbol}(void);"] if an.setup_symbol else []
    cdef += setup
    headers = ["math.h", "stdlib.h", "string.h", "stddef.h"]
    headers += [h for h in an.std_headers if h not in headers]
    if an.static_file:
        # a static head: its file is part of the glue (its types and the primal with it)
        primal = [f'#include "{os.path.abspath(an.static_file)}"']
    else:
        primal = an.type_text + ["/* the primal, as adgen's front end reads it */",
                                 an.primal_proto]
    glue_src = "\n".join([f"#include <{h}>" for h in headers] + primal + setup +
                         ["/* the derivative routines, as generated */"] + protos) + "\n"
    # a new name for every build: a process may load an old and a new build of one key
    modname = "_adgen_" + os.path.basename(work).split(".")[0][:32] + "_" + os.urandom(4).hex()
    ffi = cffi.FFI()
    try:
        ffi.cdef("\n".join(cdef))
    except Exception as exc:
        raise BuildError(f"internal error: cffi refuses the declarations ({exc}):\n" +
                         "\n".join(cdef)) from None
    ffi.set_source(modname, glue_src)
    glue = os.path.join(work, "glue.c")
    with contextlib.redirect_stdout(io.StringIO()):     # cffi says "generating ..."
        ffi.emit_c_code(glue)
    with open(os.path.join(work, "cdef.h"), "w") as fh:
        fh.write("\n".join(cdef) + "\n")

    # compile: primal sources as they are, the generated files, then the glue and link
    cflags, ldflags = list(o.get("cflags") or []), list(o.get("ldflags") or [])
    flags = _flags(o)
    jobs, objs, fortran_jobs = [], [], []
    for i, (s, path) in enumerate(zip(srcs, paths)):
        if path.lower().endswith((".h",)) or an.static_file and \
                os.path.abspath(path) == os.path.abspath(an.static_file):
            continue            # (a static head's file is compiled in the glue)
        obj = os.path.join(work, f"primal{i}.o")
        if s.is_fortran:
            # in the order given (a module before its users); .mod files in the build dir
            fortran_jobs.append((fc + ["-c", "-fPIC", "-O2", "-cpp", "-J", work, "-I", work] +
                                 flags + cflags + [path, "-o", obj],
                                 f"compiling {os.path.basename(path)} (gfortran)"))
        else:
            jobs.append((cc + ["-c", "-fPIC", "-O2"] + flags + cflags + [path, "-o", obj],
                         f"compiling {os.path.basename(path)}"))
        objs.append(obj)
    for mode, fname in files.items():
        obj = os.path.join(work, fname[:-2] + ".o")
        jobs.append((cc + ["-c", "-fPIC", "-O2"] + flags + cflags +
                     [os.path.join(work, fname), "-o", obj], f"compiling the generated {fname}"))
        objs.append(obj)
    glue_obj = os.path.join(work, "glue.o")
    # the glue calls the real prototypes: a mismatch with the declarations is an error
    jobs.append((cc + ["-c", "-fPIC", "-O1", "-Werror=incompatible-pointer-types",
                  "-Werror=int-conversion", "-I", sysconfig.get_paths()["include"]] +
                 (flags + cflags if an.static_file else []) +
                 [glue, "-o", glue_obj], "compiling the cffi glue module"))
    for job in fortran_jobs:
        _run_jobs([job])
    _run_jobs(jobs)
    objs.append(glue_obj)
    fortran = bool(fortran_jobs)
    ext = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    so = modname + ext
    link = cc + (["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin"
                 else ["-shared", "-Wl,-Bsymbolic"]) + objs + ["-o", os.path.join(work, so)]
    link += ldflags + (["-lgfortran"] if fortran else []) + ["-lm"]
    _run_jobs([(link, "linking the module")])
    for obj in objs:
        os.unlink(obj)
    return {
        "layout": _CACHE_LAYOUT, "adgen": __version__, "module": modname, "so": so,
        "func": func, "head": f"{func}({' '.join(dep)})/({' '.join(indep)})",
        "dependents": dep, "independents": indep, "params": params, "ret": an.ret,
        "ret_active": ret_active, "symbols": dict(symbols, primal=an.symbol),
        "setup": an.setup_symbol,
        "language": an.language, "vector_error": vector_error, "files": files,
        "single_inside": an.single_inside,
        "built": time.time(),
    }


def build(sources, head=None, **options) -> "Built":
    """Differentiate `sources` for `head` ('f(y)/(x)') in reverse, tangent and vector
    tangent mode, compile them with the primal into a Python module, and return a Built
    whose methods call them with numpy arrays. Cached by content (see cache_dir()).

    Options: include_dirs, defines, inactive, sizes (as for differentiate); vector (default
    True: also build f_dv when adgen accepts it); cflags, ldflags (lists for gcc);
    derivative_files ({'reverse'|'forward'|'vector': path}: use that file instead of
    adgen's output for that mode, e.g. a hand-written or Tapenade adjoint); cache_dir;
    rebuild (ignore a cached build); language (for source text)."""
    if np is None:          # pragma: no cover
        raise ImportError("adgen.build needs numpy")
    try:
        import cffi  # noqa: F401
    except ImportError:     # pragma: no cover
        raise ImportError("adgen.build needs cffi") from None
    o = _options(options, BUILD_OPTION_NAMES)
    o["cflags"] = _str_list("cflags", o.get("cflags"))
    o["ldflags"] = _str_list("ldflags", o.get("ldflags"))
    df = o.get("derivative_files") or {}
    if not isinstance(df, dict) or any(k not in ("reverse", "forward", "vector") for k in df):
        raise ValueError("derivative_files: expected a dict with keys among 'reverse', "
                         "'forward', 'vector'")
    o["derivative_files"] = {k: os.path.abspath(os.fspath(v)) for k, v in df.items()}
    for k, v in o["derivative_files"].items():
        if not os.path.isfile(v):
            raise FileNotFoundError(f"derivative_files[{k!r}]: no such file {v}")
    heads = _heads(head)
    if not heads:
        heads = _default_head(sources, o)
        if len(heads) != 1:
            raise ValueError(f"build: the sources have {len(heads)} default heads "
                             f"({', '.join(heads)}): name one with head='f(y)/(x)'")
    if len(heads) != 1:
        raise ValueError(f"build: give one head, not {len(heads)} ({', '.join(heads)})")
    head = heads[0]
    from adgen.frontend.heads import parse_head
    parse_head(head)                # AdgenError for a malformed head
    srcs = _sources(sources, o["language"])
    root = cache_dir(o.get("cache_dir"))
    key = _cache_key(srcs, head, o)
    final = root / key
    _private_dir(root, create=True)
    meta = None if o.get("rebuild") else _read_meta(final)
    if meta is not None:
        _private_dir(final)
    cached = meta is not None
    if meta is None:
        tmp = root / "tmp"
        _private_dir(tmp, create=True)
        _clean_tmp(tmp)
        work = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=tmp))
        try:
            meta = _build_into(str(work), srcs, head, o)
            with open(work / "meta.json", "w") as fh:
                json.dump(meta, fh, indent=1)
            if o.get("rebuild") or final.exists() and _read_meta(final) is None:
                # replaced (rebuild=True, or a broken entry): moved aside first, so that a
                # process loading it is not left with half a directory
                _move_aside(final, tmp, key)
            try:
                os.rename(work, final)
            except OSError:             # another process finished first: use its build
                if _read_meta(final) is None:
                    raise
                shutil.rmtree(work, ignore_errors=True)
                meta = _read_meta(final)
                _private_dir(final)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    module = _load(final, meta)
    return Built(meta, module, final, cached)


def _private_dir(path, create=False):
    """A directory of the cache must be the user's own and writable by nobody else:
    another local user could otherwise put a module there under the key a build looks for,
    and loading it would run its code as this user. Made (mode 0700) with create."""
    if create:
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise BuildError(f"cannot make the cache directory {path}: {exc.strerror}") \
                from None
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise BuildError(f"the cache directory {path}: {exc.strerror}") from None
    import stat
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise BuildError(f"the cache directory {path} is not a directory (a link, say): "
                         "refusing to use it; give another with cache_dir= or $ADGEN_CACHE")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise BuildError(f"the cache directory {path} belongs to another user (uid "
                         f"{st.st_uid}): refusing to load modules from it; give a directory "
                         "of your own with cache_dir= or $ADGEN_CACHE")
    if st.st_mode & 0o002:
        raise BuildError(f"the cache directory {path} is writable by other users (mode "
                         f"{stat.S_IMODE(st.st_mode):o}): refusing to load modules from it; "
                         f"chmod o-w {path}, or give another with cache_dir= or $ADGEN_CACHE")


# what adgen itself puts in cache_dir/tmp: builds under way (KEY.RANDOM) and entries moved
# aside (KEY.old.RANDOM)
_OWN_TMP = re.compile(r"^[0-9a-f]{32}\.(old\.)?[A-Za-z0-9_]{6,}$")


def _move_aside(final, tmp, key):
    if not final.exists():
        return
    aside = Path(tempfile.mkdtemp(prefix=f"{key}.old.", dir=tmp))
    try:
        os.replace(final, aside / "entry")
    except OSError:
        pass            # gone already, or another process moved it
    shutil.rmtree(aside, ignore_errors=True)


def _clean_tmp(tmp, age=86400):
    """Remove what builds killed long ago left in cache_dir/tmp: only adgen's own entries
    (named as it names them), whatever else the directory holds."""
    now = time.time()
    try:
        entries = list(tmp.iterdir())
    except OSError:
        return
    for e in entries:
        if not _OWN_TMP.match(e.name):
            continue
        try:
            if now - e.lstat().st_mtime > age and e.is_dir() and not e.is_symlink():
                shutil.rmtree(e, ignore_errors=True)
        except OSError:
            pass


def _default_head(sources, o):
    """The one default head of the sources (adgen's rule), for build(head=None)."""
    text = differentiate(sources, None, "forward", **{k: o[k] for k in
                                                      ("include_dirs", "defines", "inactive",
                                                       "sizes", "language")})
    return re.findall(r"[A-Za-z_]\w*\([^()]*\)/\([^()]*\)", _heads_line(text))


def _read_meta(path):
    try:
        with open(path / "meta.json") as fh:
            meta = json.load(fh)
    except (OSError, ValueError):
        return None
    if meta.get("layout") != _CACHE_LAYOUT or not (path / meta.get("so", "?")).exists():
        return None
    return meta


def _load(path, meta):
    import importlib.util
    name = meta["module"]
    mod = sys.modules.get(name)
    if mod is None:
        spec = importlib.util.spec_from_file_location(name, str(path / meta["so"]))
        try:
            mod = importlib.util.module_from_spec(spec)
        except ImportError as exc:
            missing = re.search(r"undefined symbol: (\S+)", str(exc))
            if missing is None:
                raise BuildError(f"the compiled module does not load: {exc}") from None
            raise BuildError(
                f"the program calls '{missing.group(1)}', which none of the sources "
                "defines: add the file that defines it to the sources (adgen check "
                "FILE FILE2 ..., adgen.build([FILE, FILE2, ...]))") from None
        spec.loader.exec_module(mod)
        sys.modules[name] = mod
    return mod


# ------------------------------------------------------------------------- calling

def numpy_dtype(elem, ffi):
    """The numpy dtype of a C element type (KeyError, ValueError, TypeError when none)."""
    if elem == "double":
        return np.dtype(np.float64)
    if elem == "float":
        return np.dtype(np.float32)
    if elem == "long double":
        return np.dtype(np.longdouble)
    signed, kind = _INT_DTYPES[elem]
    if kind == "b":
        return np.dtype(np.bool_)
    return np.dtype(f"{kind}{ffi.sizeof(elem)}")


def _describe(p):
    if p["kind"] == "string":
        return "CHARACTER string (a str)"
    if p["kind"] == "array":
        return f"{'const ' if p['const'] else ''}{p['elem']} array"
    if p["kind"] in ("struct", "struct_ptr"):
        return p["cdef"]
    return p["elem"]


# A struct independent or dependent is, to the derivative methods, the vector of its
# floating-point fields (nested structs and arrays of them included) in declaration order;
# results come back as a dict of those fields.

def _holds_floats(t):
    if t.kind == "primitive":
        return t.cname in FLOAT_NAMES
    if t.kind == "array":
        return t.length is not None and _holds_floats(t.item)
    return t.kind == "struct" and any(_holds_floats(f.type) for _, f in t.fields)


def _struct_fields(t):
    return [(name, f.type) for name, f in t.fields if _holds_floats(f.type)]


def _type_layout(t):
    """The layout (see _handle_layout) of (cffi) type t when it holds no pointers: a
    floating-point value, a fixed-size array or a struct of such (the fields holding
    floating-point values, in order)."""
    if t.kind == "primitive":
        return ("f",)
    if t.kind == "array":
        item = _type_layout(t.item)
        return ("arr", (item,) * t.length)
    return ("struct", tuple((name, _type_layout(ft)) for name, ft in _struct_fields(t)))


def struct_field_labels(t, prefix=""):
    """`.a`, `.p[1].x[2]`, ...: the floating-point values of (cffi) type t, in the order the
    derivative methods flatten them (a primitive's own label is `prefix`)."""
    return _node_labels(_type_layout(t), prefix)


def _struct_count(t):
    """The number of floating-point values in (cffi) type t."""
    return _node_count(_type_layout(t))


def struct_initializer(ffi, t, v, keep, share=False):
    """The cffi initializer of (cffi) struct type t from v, a dict of its fields in which a
    pointer field to numbers may be given as a sequence or numpy array: that becomes a C
    array, appended to keep (which must live as long as the struct); a pointer field to a
    struct may be given as a dict (one struct) or a list of dicts, made the same way. With
    share, a numpy array of the field's dtype, C-contiguous and writeable, is passed
    without a copy (what the function writes appears in it). Other values as they are."""
    if not isinstance(v, dict) or t.kind != "struct":
        return v
    fields = dict(t.fields)
    out = dict(v)
    for name, value in v.items():
        f = fields.get(name)
        if f is None:
            continue            # cffi names the unknown field
        ft = f.type
        if ft.kind == "pointer" and value is None:
            out[name] = ffi.NULL
        elif ft.kind == "pointer" and ft.item.kind == "primitive" and \
                not isinstance(value, ffi.CData) and value is not None and \
                not isinstance(value, numbers.Number):
            arr, dt = None, _dtype_or_none(ft.item.cname, ffi)
            if isinstance(value, np.ndarray) and value.dtype == dt:
                if share and value.flags.c_contiguous and value.flags.writeable:
                    arr = ffi.from_buffer(f"{ft.item.cname}[]", value)
                else:                       # a copy
                    arr = ffi.new(f"{ft.item.cname}[]", value.size)
                    ffi.memmove(arr, ffi.from_buffer(np.ascontiguousarray(value)), value.nbytes)
            if arr is None:
                arr = ffi.new(f"{ft.item.cname}[]", np.asarray(value).reshape(-1).tolist())
            keep.append(arr)
            out[name] = arr
        elif ft.kind == "pointer" and ft.item.kind == "struct" and \
                (isinstance(value, dict) or isinstance(value, (list, tuple)) and value and
                 all(isinstance(item, dict) for item in value)):
            if isinstance(value, dict):
                ptr = ffi.new(ft, struct_initializer(ffi, ft.item, value, keep, share))
            else:
                ptr = ffi.new(ffi.getctype(ft.item, "[]"),
                              [struct_initializer(ffi, ft.item, item, keep, share)
                               for item in value])
            keep.append(ptr)
            out[name] = ptr
        elif is_descriptor(ft) and (not isinstance(value, dict) or "values" in value):
            out[name] = _descriptor_init(ffi, ft, value, keep, share)
        elif ft.kind == "struct":
            out[name] = struct_initializer(ffi, ft, value, keep, share)
    return out


# gfortran's array descriptors (GCC 8 and later; adgen names their structs adgen_gfc_*):
# an allocatable component of a derived type. The API takes and gives numpy arrays for them.
_GFC_TYPE = {"int": 1, "long": 1, "signed char": 1, "short": 1, "float": 3, "double": 3,
             "long double": 3}


def is_descriptor(t):
    """True when (cffi) type t is the struct of a gfortran array descriptor."""
    return t.kind == "struct" and t.cname.startswith("struct adgen_gfc_") and \
        any(name == "base_addr" for name, _ in t.fields)


def descriptor_type(t):
    """(element type name, rank) of gfortran array descriptor type t."""
    fields = dict(t.fields)
    return fields["base_addr"].type.item.cname, fields["dim"].type.length


def _descriptor_init(ffi, t, value, keep, share=False):
    """The cffi initializer of gfortran array descriptor type t describing value: a numpy
    array or nested sequence of the descriptor's rank, its lower bounds 1, or a dict
    {"values": array, "lbound": [lower bound per dimension]}; None: not allocated. The data
    is a C array in Fortran order, appended to keep; with share, a Fortran-contiguous
    writeable numpy array of the element's dtype is used in place."""
    elem, rank = descriptor_type(t)
    lbound = [1] * rank
    if isinstance(value, dict):
        unknown = set(value) - {"values", "lbound"}
        if unknown:
            raise ValueError(f"an allocatable component is an array, or a dict with "
                             f"'values' and 'lbound': no {sorted(unknown)[0]!r}")
        lbound = [int(b) for b in value.get("lbound", lbound)]
        value = value["values"]
        if len(lbound) != rank:
            raise ValueError(f"'lbound' has {len(lbound)} bounds for an array of rank {rank}")
    if value is None:
        return {"base_addr": ffi.NULL}
    dt = _dtype_or_none(elem, ffi)
    a = value if isinstance(value, np.ndarray) and value.dtype == dt else \
        np.asarray(value, dtype=dt)
    if a.ndim != rank:
        raise ValueError(f"expected an array of rank {rank} (an allocatable component), "
                         f"got shape {a.shape}")
    if share and a.flags.f_contiguous and a.flags.writeable and a.size:
        data = ffi.from_buffer(f"{elem}[]", a.reshape(-1, order="F"))
    else:
        data = ffi.new(f"{elem}[]", max(a.size, 1))
        flat = np.asfortranarray(a).reshape(-1, order="F")
        if a.size:
            ffi.memmove(data, ffi.from_buffer(flat), flat.nbytes)
    keep.append(data)
    strides, stride = [], 1
    for extent in a.shape:
        strides.append(stride)
        stride *= extent
    size = ffi.sizeof(elem)
    return {"base_addr": data,
            "offset": (-sum(b * st for b, st in zip(lbound, strides))) % (1 << 64),
            "dtype": {"elem_len": size, "version": 0, "rank": rank,
                      "type": _GFC_TYPE.get(elem, 0), "attribute": 0},
            "span": size,
            "dim": [{"stride": st, "lower_bound": b, "ubound": b + extent - 1}
                    for st, b, extent in zip(strides, lbound, a.shape)]}


def _dtype_or_none(cname, ffi):
    try:
        return numpy_dtype(cname, ffi)
    except (KeyError, ValueError, TypeError):
        return None


# ------------------------------------------------------------------------------- handles
#
# A handle is a struct holding pointers to floating-point numbers or to structs (a mesh
# with its arrays and a nested material). As an independent or dependent, its derivative
# parts are its fields in declaration order, recursively: a floating-point field (or the
# floats of an array field or a nested struct), the whole array a pointer field to numbers
# points to (its length: that of the array the caller gave), the parts of the struct a
# pointer-to-struct field points to. The layout depends on the lengths given, so it is made
# per call, as a tree of nodes:
#     ("f",)                          a floating-point value
#     ("arr", (node, ...))            a fixed-size array field, a node per element
#     ("struct", ((name, node), ...)) the fields holding parts
#     ("ptr", cname, n)               a pointer to n numbers of type cname
#     ("pstruct", node | None, ctype) a pointer (ctype) to one struct; None: NULL
#     ("none",)                       a value that is not a part (see _node_outputs)
#     ("desc", ptr node, shape)       a gfortran array descriptor (an allocatable
#                                     component): its data, a numpy array of that shape

class _HandleError(Exception):
    pass


def _type_has_parts(t, seen=()):
    """True when a value of (cffi) type t holds floating-point values, in itself or
    through its pointers."""
    if t.kind == "primitive":
        return t.cname in FLOAT_NAMES
    if t.kind == "array":
        return t.length is not None and _type_has_parts(t.item, seen)
    if t.kind == "pointer":
        return t.item.kind == "primitive" and t.item.cname in FLOAT_NAMES or \
            t.item.kind == "struct" and _type_has_parts(t.item, seen)
    if t.kind == "struct" and t not in seen:
        return any(_type_has_parts(f.type, seen + (t,)) for _, f in t.fields)
    return False


def is_handle(t, seen=()):
    """True when (cffi) struct type t holds, in a field or a nested struct, a pointer to
    floating-point numbers or to a struct holding some."""
    if t.kind == "array":
        return t.length is not None and is_handle(t.item, seen)
    if t.kind == "pointer":
        return _type_has_parts(t)
    if t.kind != "struct" or t in seen:
        return False
    return any(is_handle(f.type, seen + (t,)) for _, f in t.fields)


def _known_lengths(ffi, keep):
    """{address: number of elements} of the C arrays in keep."""
    out = {}
    for c in keep:
        try:
            if ffi.typeof(c).kind == "array":
                out[int(ffi.cast("uintptr_t", c))] = len(c)
        except TypeError:
            pass
    return out


def _handle_layout(ffi, t, v, lengths, path, seen=frozenset()):
    """The layout node of value v (cdata; a number for a primitive) of (cffi) type t."""
    k = t.kind
    if k == "primitive":
        return ("f",)
    if k == "array":
        return ("arr", tuple(_handle_layout(ffi, t.item, v[i], lengths, f"{path}[{i}]", seen)
                             for i in range(t.length)))
    if k == "struct" and is_descriptor(t):
        # an allocatable component: its data, as many numbers as the descriptor describes
        # (none when not allocated), an array of the descriptor's shape
        elem, rank = descriptor_type(t)
        data = _handle_layout(ffi, dict(t.fields)["base_addr"].type, v.base_addr, lengths,
                              path, seen)
        shape = tuple(max(0, v.dim[i].ubound - v.dim[i].lower_bound + 1) if data[2] else 0
                      for i in range(rank))
        n = int(np.prod(shape))
        if data[2] < n:
            raise _HandleError(f"{path}: its descriptor describes {n} elements but holds "
                               f"{data[2]}")
        return ("desc", ("ptr", elem, n), shape)
    if k == "struct":
        return ("struct", tuple((name, _handle_layout(ffi, f.type, getattr(v, name), lengths,
                                                      f"{path}.{name}", seen))
                                for name, f in t.fields if _type_has_parts(f.type)))
    addr = int(ffi.cast("uintptr_t", v))
    if t.item.kind == "primitive":
        if addr == 0:
            return ("ptr", t.item.cname, 0)
        if addr not in lengths:
            raise _HandleError(f"the length of the array {path} is not known: give the "
                               "struct as a dict with the array as a sequence or numpy array")
        return ("ptr", t.item.cname, lengths[addr])
    if addr == 0:
        return ("pstruct", None, t)
    if addr in seen:
        raise _HandleError(f"{path} leads back to a struct it is part of")
    return ("pstruct", _handle_layout(ffi, t.item, v[0], lengths, path, seen | {addr}), t)


def _node_outputs(node):
    """The layout of the parts of a by-value handle that a call can change: those reached
    through its pointers (the copy's own fields are not outputs)."""
    k = node[0]
    if k in ("ptr", "pstruct", "desc"):
        return node
    if k == "arr":
        items = tuple(_node_outputs(sub) for sub in node[1])
        return ("none",) if all(i[0] == "none" for i in items) else ("arr", items)
    if k == "struct":
        fields = tuple((name, sub) for name, sub in
                       ((name, _node_outputs(sub)) for name, sub in node[1])
                       if sub[0] != "none")
        return ("struct", fields) if fields else ("none",)
    return ("none",)


def _node_count(node):
    k = node[0]
    if k == "f":
        return 1
    if k == "arr":
        return sum(_node_count(sub) for sub in node[1])
    if k == "struct":
        return sum(_node_count(sub) for _, sub in node[1])
    if k == "ptr":
        return node[2]
    if k == "pstruct":
        return 0 if node[1] is None else _node_count(node[1])
    if k == "desc":
        return _node_count(node[1])
    return 0


def _node_labels(node, prefix):
    """`m.h`, `m.x[2]`, `m.mat.k[0]`: the labels of the parts, in order."""
    k = node[0]
    if k == "f":
        return [prefix]
    if k == "arr":
        return [lab for i, sub in enumerate(node[1])
                for lab in _node_labels(sub, f"{prefix}[{i}]")]
    if k == "struct":
        return [lab for name, sub in node[1] for lab in _node_labels(sub, f"{prefix}.{name}")]
    if k == "ptr":
        return [f"{prefix}[{i}]" for i in range(node[2])]
    if k == "pstruct" and node[1] is not None:
        return _node_labels(node[1], prefix)
    if k == "desc":             # numpy's indices of the array, in Fortran order
        return [f"{prefix}[{', '.join(str(int(i)) for i in np.unravel_index(j, node[2], order='F'))}]"
                for j in range(_node_count(node))]
    return []


def _node_read(ffi, node, v, out):
    """Appends the parts of v (cdata laid out as node) to the list out."""
    k = node[0]
    if k == "f":
        out.append(float(v))
    elif k == "arr":
        for i, sub in enumerate(node[1]):
            if sub[0] != "none":
                _node_read(ffi, sub, v[i], out)
    elif k == "struct":
        for name, sub in node[1]:
            _node_read(ffi, sub, getattr(v, name), out)
    elif k == "ptr":
        if node[2]:
            out.extend(float(x) for x in ffi.unpack(v, node[2]))
    elif k == "pstruct" and node[1] is not None:
        _node_read(ffi, node[1], v[0], out)
    elif k == "desc":
        _node_read(ffi, node[1], v.base_addr, out)


def _node_write(ffi, node, v, values):
    """Sets the parts of v (a struct, an array or a pointer: set in place) from the
    iterator values."""
    k = node[0]
    if k == "arr":
        for i, sub in enumerate(node[1]):
            if sub[0] == "f":
                v[i] = next(values)
            else:
                _node_write(ffi, sub, v[i], values)
    elif k == "struct":
        for name, sub in node[1]:
            if sub[0] == "f":
                setattr(v, name, next(values))
            else:
                _node_write(ffi, sub, getattr(v, name), values)
    elif k == "ptr":
        for i in range(node[2]):
            v[i] = next(values)
    elif k == "pstruct" and node[1] is not None:
        _node_write(ffi, node[1], v[0], values)
    elif k == "desc":
        _node_write(ffi, node[1], v.base_addr, values)


_NP_FLOAT = {"double": "float64", "float": "float32", "long double": "longdouble"}


def _node_dict(node, values):
    """The parts from the iterator values in the shape of the handle: a dict per struct
    (also one a pointer leads to), a numpy array per array of numbers, a float per field."""
    k = node[0]
    if k == "f":
        return float(next(values))
    if k == "arr":
        items = [_node_dict(sub, values) for sub in node[1]]
        return np.array(items) if all(sub[0] == "f" for sub in node[1]) else items
    if k == "struct":
        return {name: _node_dict(sub, values) for name, sub in node[1]}
    if k == "ptr":
        return np.array([next(values) for _ in range(node[2])],
                        dtype=_NP_FLOAT.get(node[1], "float64"))
    if k == "pstruct" and node[1] is not None:
        return _node_dict(node[1], values)
    if k == "desc":
        return _node_dict(node[1], values).reshape(node[2], order="F")
    return None


def _node_flatten(node, v, where):
    """The parts of v, a nested dict (arrays as sequences) shaped like the handle, in
    order; a missing field, or None, counts as zero."""
    k = node[0]
    if k == "none":
        return []
    if k == "f":
        if not isinstance(v, numbers.Real) or isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{where}: expected a number, got {type(v).__name__}")
        return [float(v)]
    if v is None:
        return [0.0] * _node_count(node)
    if k == "desc":
        if isinstance(v, dict) and "values" in v:
            v = v["values"]             # (its bounds are the primal's)
        try:
            a = np.asarray(v, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{where}: expected an array of shape {node[2]}, got "
                            f"{type(v).__name__}") from None
        if a.shape != tuple(node[2]) and not (a.ndim == 1 and a.size == _node_count(node)
                                               and len(node[2]) == 1):
            raise ValueError(f"{where}: expected an array of shape {tuple(node[2])}, got "
                             f"{a.shape}")
        return [float(x) for x in a.reshape(-1, order="F")]
    if k in ("arr", "ptr"):
        n = len(node[1]) if k == "arr" else node[2]
        flat_items = k == "ptr" or all(sub[0] in ("f", "none") for sub in node[1])
        if flat_items:
            try:
                items = list(np.asarray(v, dtype=np.float64).reshape(-1))
            except (TypeError, ValueError):
                raise TypeError(f"{where}: expected {n} numbers, got {type(v).__name__}") \
                    from None
        else:
            items = list(v) if isinstance(v, (list, tuple)) else None
            if items is None:
                raise TypeError(f"{where}: expected a list, got {type(v).__name__}")
        if len(items) != n:
            raise ValueError(f"{where}: expected {n} values, got {len(items)}")
        if k == "ptr":
            return [float(x) for x in items]
        return [x for i, (sub, item) in enumerate(zip(node[1], items))
                for x in _node_flatten(sub, float(item) if flat_items else item,
                                       f"{where}[{i}]")]
    if k == "pstruct":
        return [] if node[1] is None else _node_flatten(node[1], v, where)
    if not isinstance(v, dict):
        raise TypeError(f"{where}: expected a dict of fields, got {type(v).__name__}")
    names = [name for name, _ in node[1]]
    unknown = [name for name in v if name not in names]
    if unknown:
        raise ValueError(f"{where}: no floating-point field {unknown[0]!r} (the fields with "
                         f"derivatives: {', '.join(names) or 'none'})")
    return [x for name, sub in node[1]
            for x in (_node_flatten(sub, v[name], f"{where}.{name}") if name in v
                      else [0.0] * _node_count(sub))]


def _node_clone(ffi, node, v, keep, zero):
    """v (a struct or array cdata, set in place) is a byte copy of another: points its
    pointers to copies of what they point to, zeros with zero=True (which also zeroes its
    parts). The copies are appended to keep."""
    def child(sub, get, put):
        if sub[0] == "f":
            if zero:
                put(0.0)
        elif sub[0] in ("ptr", "pstruct"):
            put(_node_clone_ptr(ffi, sub, get(), keep, zero))
        elif sub[0] == "desc":      # the descriptor in place, its data copied
            d = get()
            d.base_addr = _node_clone_ptr(ffi, sub[1], d.base_addr, keep, zero)
        elif sub[0] != "none":
            _node_clone(ffi, sub, get(), keep, zero)
    if node[0] == "arr":
        for i, sub in enumerate(node[1]):
            child(sub, lambda i=i: v[i], lambda x, i=i: v.__setitem__(i, x))
    elif node[0] == "struct":
        for name, sub in node[1]:
            child(sub, lambda name=name: getattr(v, name),
                  lambda x, name=name: setattr(v, name, x))


def _node_clone_ptr(ffi, node, old, keep, zero):
    if node[0] == "ptr":
        n = node[2]
        if n == 0:
            return ffi.NULL if zero else old
        buf = ffi.new(f"{node[1]}[{n}]")
        if not zero:
            ffi.memmove(buf, old, n * ffi.sizeof(node[1]))
        keep.append(buf)
        return buf
    if node[1] is None:
        return old                  # NULL
    new = ffi.new(node[2], old[0])
    _node_clone(ffi, node[1], new[0], keep, zero)
    keep.append(new)
    return new


def _handle_copy(ffi, node, ctype, obj, keep, zero):
    """A new struct (a pointer to it) copying obj (a struct cdata laid out as node) with
    copies of every array and struct its pointers lead to; with zero=True, the derivative
    struct of obj: the same, with every part zero (its other fields, such as integers,
    copied)."""
    ptr = ffi.new(ctype + " *", obj)
    _node_clone(ffi, node, ptr[0], keep, zero)
    keep.append(ptr)
    return ptr


def _missing_pointer_fields(t, v, prefix, seen=()):
    """The paths of the pointer fields of (cffi) struct type t that dict v (nested dicts
    for the structs pointer fields lead to) leaves out."""
    if not isinstance(v, dict) or t.kind != "struct" or t in seen:
        return []
    out = []
    for name, f in t.fields:
        ft = f.type
        if is_descriptor(ft):
            if name not in v:
                out.append(f"{prefix}.{name}")
        elif ft.kind == "pointer":
            if name not in v:
                out.append(f"{prefix}.{name}")
            elif ft.item.kind == "struct":
                out += _missing_pointer_fields(ft.item, v[name], f"{prefix}.{name}",
                                               seen + (t,))
        elif ft.kind == "struct" and name in v:
            out += _missing_pointer_fields(ft, v[name], f"{prefix}.{name}", seen + (t,))
    return out


class _Args:
    """The arguments of one API call, converted and checked."""

    def __init__(self, values, arrays, shapes, boxed, env, struct_ptrs=(), ffi=None):
        self.values = values        # name -> int/float/cdata/ndarray (pristine)
        self.arrays = arrays        # names of array arguments
        self.shapes = shapes        # name -> the user's shape
        self.boxed = boxed          # names of scalars boxed into 1-element arrays (Fortran)
        self.env = env
        self.struct_ptrs = set(struct_ptrs)     # names of pointers to structs
        self.ffi = ffi
        self.handles = {}   # name -> {"full", "out": layouts, "ctype", "byvalue"}
        self.keep = []      # what the structs' pointers lead to: alive as long as the call

    def fresh(self):
        """Copies of the arrays and pointed-to structs (each derivative call starts from the
        same inputs); a handle's copy has copies of the arrays and structs it leads to."""
        out = {}
        for n, v in self.values.items():
            if n in self.handles:
                h = self.handles[n]
                ptr = _handle_copy(self.ffi, h["full"], h["ctype"],
                                   v if h["byvalue"] else v[0], self.keep, zero=False)
                v = ptr[0] if h["byvalue"] else ptr
            elif n in self.arrays:
                v = v.copy()
            elif n in self.struct_ptrs:
                t = self.ffi.typeof(v)
                if t.kind == "array":       # an array of structs
                    copy = self.ffi.new(t, len(v))
                    self.ffi.memmove(copy, v, self.ffi.sizeof(v))
                    v = copy
                else:
                    v = self.ffi.new(t, v[0])
            out[n] = v
        return out


class Built:
    """A head compiled with its derivatives. Methods take the C function's arguments
    (positionally, or by parameter name): numpy arrays for pointers (dtype float64 for
    double, float32 for float, int32 for int, ...), Python numbers for scalars, a dict or
    sequence (cffi initializer) for structs.

    primal(*args)              the C function: returns its return value; arrays written in place
    gradient(*args)            {independent: gradient} of the one scalar dependent
    vjp(*args, seeds={...})    {independent: adjoint} for seeds of the dependents
    jvp(*args, tangents={...}) {dependent: tangent}; with nbdirs=k, k directions at once (f_dv)
    jacobian(*args)            {(dependent, independent): 2-D array J[i, j] = d dep[i] / d ind[j]}

    The derivative methods never modify their arguments. Attributes: name, head,
    dependents, independents, parameters, path (the cache entry), cached (found in the
    cache), vector (f_dv available), vector_error (why not), files ({mode: path}).
    """

    def __init__(self, meta, module, path, cached):
        self._meta = meta
        self._ffi, self._lib = module.ffi, module.lib
        self.name = meta["func"]
        self.head = meta["head"]
        self.dependents = list(meta["dependents"])
        self.independents = list(meta["independents"])
        self._params = meta["params"]
        self._by_name = {p["name"]: p for p in self._params}
        # (the lengths of CHARACTER strings are the strings')
        self.parameters = [p["name"] for p in self._params if p["kind"] != "length"]
        self.path = Path(path)
        self.cached = cached
        self.vector_error = meta["vector_error"]
        self.vector = "vector" in meta["symbols"]
        self.files = {m: self.path / f for m, f in meta["files"].items()}
        self._fortran = meta["language"] != "c"
        self._sym = meta["symbols"]

    def __repr__(self):
        return f"<adgen.Built {self.head} at {self.path}>"

    # -- arguments --
    def _bind(self, what, args, kwargs):
        names = self.parameters
        sig = ", ".join(f"{n}: {_describe(self._by_name[n])}" for n in names)
        if len(args) > len(names):
            raise TypeError(f"{what}() takes {len(names)} argument{'s' * (len(names) != 1)} "
                            f"({sig}), got {len(args)}")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in self._by_name:
                raise TypeError(f"{what}(): unknown argument {k!r} (parameters: {sig})")
            if k in values:
                raise TypeError(f"{what}(): got two values for argument {k!r}")
            values[k] = v
        missing = [n for n in names if n not in values]
        if missing:
            raise TypeError(f"{what}(): missing argument{'s' * (len(missing) > 1)} "
                            f"{', '.join(map(repr, missing))} (parameters: {sig})")
        return values

    def _convert(self, what, args, kwargs, copy=True):
        ffi = self._ffi
        raw = self._bind(what, args, kwargs)
        values, arrays, shapes, boxed, env = {}, set(), {}, set(), {}
        arrays_of_structs, keep, handles, lengths = [], [], {}, {}
        for p in self._params:
            n, v, kind = p["name"], raw.get(p["name"]), p["kind"]
            where = f"{what}(): argument {n!r} ({_describe(p)})"
            if kind == "length":
                continue        # set from its string's below
            if kind == "string":
                if isinstance(v, str):
                    v = v.encode()
                if not isinstance(v, bytes):
                    raise TypeError(f"{where} must be a str, got {type(v).__name__}")
                values[n] = ffi.new("char[]", v)
                lengths[n] = len(v)
            elif kind == "int":
                if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
                    raise TypeError(f"{where} must be an int, got {type(v).__name__}")
                v = int(v)
                bits = 8 * ffi.sizeof(p["elem"])
                signed = _INT_DTYPES[p["elem"]][0]
                lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else \
                    (0, (1 << bits) - 1)
                if not lo <= v <= hi:
                    raise ValueError(f"{where}: {v} is out of range [{lo}, {hi}]")
                values[n] = env[n] = v
            elif kind == "real":
                if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
                    raise TypeError(f"{where} must be a real number, got {type(v).__name__}")
                values[n] = env[n] = float(v)
            elif kind == "array":
                dt = numpy_dtype(p["elem"], ffi)
                if self._fortran and isinstance(v, numbers.Number) and \
                        not isinstance(v, (bool, np.bool_)):
                    v = np.array([v], dtype=dt)     # a Fortran scalar, passed by reference
                    boxed.add(n)
                    env[n] = v
                if not isinstance(v, np.ndarray):
                    raise TypeError(f"{where} must be a numpy array of dtype {dt}, got "
                                    f"{type(v).__name__}")
                if v.dtype != dt:
                    raise TypeError(f"{where} must have dtype {dt}, got {v.dtype}"
                                    f" (convert it with np.asarray(..., dtype=np.{dt}))")
                shapes[n] = v.shape
                if copy or not v.flags.c_contiguous:
                    v = np.array(v, dtype=dt, order="C", copy=True)
                values[n] = v
                arrays.add(n)
            else:       # struct, struct_ptr
                ctype = p["elem"]
                count = 1       # structs passed
                handle = bool(p["role"]) and is_handle(ffi.typeof(ctype))
                if handle and isinstance(v, dict):
                    missing = _missing_pointer_fields(ffi.typeof(ctype), v, n)
                    if missing:
                        raise TypeError(f"{where}: no value for {', '.join(missing)}: give "
                                        "every pointer field of a struct holding pointers "
                                        "(an array as a sequence or numpy array, a struct as "
                                        "a dict, None for a NULL pointer)")
                if isinstance(v, ffi.CData):
                    t = ffi.typeof(v)
                    want = ffi.typeof(ctype if kind == "struct" else ctype + " *")
                    if t is want:
                        values[n] = v
                    elif kind == "struct" and t is ffi.typeof(ctype + " *"):
                        values[n] = v[0]
                    elif kind == "struct_ptr" and t.kind == "array" and \
                            t.item is ffi.typeof(ctype):
                        values[n], count = v, len(v)
                    else:
                        raise TypeError(f"{where}: got a cdata {t.cname}")
                elif kind == "struct_ptr" and isinstance(v, (list, tuple)) and v and \
                        all(isinstance(item, dict) for item in v):
                    # an array of structs, one dict each
                    try:
                        values[n] = ffi.new(f"{ctype}[]", [
                            struct_initializer(ffi, ffi.typeof(ctype), item, keep, not copy)
                            for item in v])
                    except (TypeError, ValueError, OverflowError, KeyError) as exc:
                        raise TypeError(f"{where}: cannot make an array of {ctype} of {v!r} "
                                        f"({exc})")
                    count = len(v)
                else:
                    try:
                        ptr = ffi.new(ctype + " *", struct_initializer(
                            ffi, ffi.typeof(ctype), v, keep, not copy))
                    except (TypeError, ValueError, OverflowError, KeyError) as exc:
                        raise TypeError(f"{where}: cannot make a {ctype} of {v!r} ({exc}); give "
                                        "a dict of its fields or a sequence in field order")
                    values[n] = ptr[0] if kind == "struct" else ptr
                env[n] = values[n]
                shapes[n] = (count * _struct_count(ffi.typeof(ctype)),)
                if kind == "struct_ptr":
                    arrays_of_structs.append((n, count))
                if handle and copy:        # a derivative method: the layout of its parts
                    if count != 1:
                        raise TypeError(f"{where}: {n} is one {ctype} (a struct holding "
                                        f"pointers): give one dict, not {count}")
                    obj = values[n] if kind == "struct" else values[n][0]
                    try:
                        full = _handle_layout(ffi, ffi.typeof(ctype), obj,
                                              _known_lengths(ffi, keep), n)
                    except _HandleError as exc:
                        raise TypeError(f"{where}: {exc}") from None
                    handles[n] = {"full": full, "ctype": ctype, "byvalue": kind == "struct",
                                  "out": _node_outputs(full) if kind == "struct" else full}
                    shapes[n] = (_node_count(full),)
        for n in arrays:
            p = self._by_name[n]
            if p["extent"] is None:
                continue
            try:
                need = _eval(p["extent"], env)
            except (_NoEval, Exception):
                continue
            size = values[n].size
            if need > size:
                shown = {}
                for r in re.findall(r"[A-Za-z_]\w*", p["extent_text"] or ""):
                    v = env.get(r)
                    if isinstance(v, np.ndarray) and v.size == 1:      # a Fortran scalar
                        v = v.reshape(-1)[0].item()
                    if isinstance(v, int):
                        shown[r] = v
                with_ = f" with {', '.join(f'{k}={v}' for k, v in shown.items())}" \
                    if shown else ""
                raise ValueError(f"{what}(): argument {n!r} has {size} element"
                                 f"{'s' * (size != 1)}, but {self.name} uses {need} "
                                 f"({p['extent_text']}{with_})")
        for n, count in arrays_of_structs:
            need = self._extent(n, env)
            if need is not None and need > count:
                elem = self._by_name[n]["elem"]
                raise ValueError(f"{what}(): argument {n!r} points to {count} {elem}, but "
                                 f"{self.name} uses {need} of them "
                                 f"({self._by_name[n]['extent_text']}): give a list of "
                                 f"{need} dicts, one per struct")
        self._check_field_lengths(what, values, env, keep)
        for p in self._params:
            if p["kind"] == "length":
                values[p["name"]] = env[p["name"]] = lengths[p["of"]]
        struct_ptrs = [p["name"] for p in self._params if p["kind"] == "struct_ptr"]
        args = _Args(values, arrays, shapes, boxed, env, struct_ptrs, ffi)
        args.keep = keep        # the arrays the structs' pointer fields point to
        args.handles = handles
        return args

    def _check_field_lengths(self, what, values, env, keep):
        """The arrays the pointer fields of struct arguments lead to (those given as
        sequences or numpy arrays) are as long as the code uses, where adgen's analysis
        tells (ValueError otherwise)."""
        ffi = self._ffi
        lengths = None
        for p in self._params:
            fe = p.get("field_extents")
            if not fe or p["kind"] not in ("struct", "struct_ptr"):
                continue
            lengths = _known_lengths(ffi, keep) if lengths is None else lengths
            n = p["name"]
            for path, (ser, text) in fe.items():
                try:
                    v, field = values[n], n
                    for name in path.split("."):
                        pointer = ffi.typeof(v).kind == "pointer"
                        if pointer and v == ffi.NULL:
                            raise _NoEval("NULL")
                        v, field = getattr(v, name), field + ("->" if pointer else ".") + name
                    size = lengths.get(int(ffi.cast("uintptr_t", v)))
                    need = _eval(ser, env) if size is not None else None
                except Exception:
                    continue
                if need is None or need <= size:
                    continue
                shown = {}
                for m in re.finditer(r"\b([A-Za-z_]\w*)(->|\.)([A-Za-z_]\w*)\b(?![.\-(\[])",
                                     text):
                    try:
                        val = getattr(env[m.group(1)], m.group(3))
                    except Exception:
                        continue
                    if isinstance(val, int):
                        shown[m.group(0)] = val
                for r in re.findall(r"(?<![>.\w])[A-Za-z_]\w*(?![\w(]|->|\.)", text):
                    if isinstance(env.get(r), int) and not isinstance(env.get(r), bool):
                        shown[r] = env[r]
                with_ = f" with {', '.join(f'{k}={v}' for k, v in shown.items())}" \
                    if shown else ""
                raise ValueError(f"{what}(): argument {n!r}: {field} has {size} element"
                                 f"{'s' * (size != 1)}, but {self.name} uses {need} "
                                 f"({text}{with_})")

    def _cvals(self, vals):
        ffi = self._ffi
        if self._meta.get("setup"):
            # the set-up function first (globals an init routine sets), before every call
            getattr(self._lib, self._meta["setup"])()
        out = {}
        for p in self._params:
            v = vals[p["name"]]
            out[p["name"]] = ffi.from_buffer(p["elem"] + "[]", v) if p["kind"] == "array" else v
        return out

    # -- the routines --
    def primal(self, *args, **kwargs):
        """Call the C function. Pointer arguments are passed as they are (no copy) when they
        are C-contiguous: what the function writes appears in them. Returns its return
        value (None for void)."""
        what = f"{self.name}.primal"
        a = self._convert(what, args, kwargs, copy=False)
        raw = self._bind(what, args, kwargs)
        writeback = []
        for n in a.arrays:
            user = raw[n]
            if a.values[n] is user:
                if not user.flags.writeable and not self._by_name[n]["const"]:
                    if self._by_name[n]["role"] in ("out", "inout"):
                        raise ValueError(f"{what}(): argument {n!r} is an output of "
                                         f"{self.name} but the array is read-only")
                    a.values[n] = user.copy()
            elif n not in a.boxed and user.flags.writeable and not self._by_name[n]["const"]:
                writeback.append(n)     # not contiguous: copied in, copied back
        res = self._run_primal(a.values)
        for n in writeback:
            raw[n][...] = a.values[n].reshape(a.shapes[n])
        return res

    def _run_primal(self, vals):
        c = self._cvals(vals)
        return getattr(self._lib, self._sym["primal"])(*[c[p["name"]] for p in self._params])

    def _extent(self, name, env):
        """The number of elements the code uses of array parameter `name`, given the values
        of the other parameters in env; None when unknown."""
        p = self._by_name[name]
        if p["extent"] is None:
            return None
        try:
            return _eval(p["extent"], env)
        except Exception:
            return None

    def _size(self, a, name, out=False):
        """The number of values of `name` as an independent (out=False) or a dependent
        (out=True): they differ for a handle passed by value."""
        if name == self.name:
            return 1
        if name in a.handles:
            return _node_count(a.handles[name]["out" if out else "full"])
        p = self._by_name[name]
        if p["kind"] in ("struct", "struct_ptr"):
            return a.shapes[name][0]
        return 1 if p["kind"] == "real" else a.values[name].size

    def _seed_array(self, what, a, name, value, kind, nbdirs=None):
        """A user's seed or tangent for `name` as a flat array of its element type (with a
        leading nbdirs axis when nbdirs is given)."""
        n = self._size(a, name, out=kind == "seeds")
        p = self._by_name.get(name)
        if name in a.handles and (isinstance(value, dict) or value is None):
            if nbdirs is not None:
                raise TypeError(f"{what}(): {kind}[{name!r}]: with nbdirs, give an array "
                                f"of shape ({nbdirs}, {n}) (the parts flattened)")
            value = _node_flatten(a.handles[name]["out" if kind == "seeds" else "full"],
                                  value, f"{what}(): {kind}[{name!r}]")
        struct = p is not None and p["kind"] in ("struct", "struct_ptr")
        elem = p["elem"] if p else self._meta["ret"]["cdef"]
        dt = np.dtype(np.float64) if struct else numpy_dtype(elem, self._ffi)
        if name in a.handles:
            struct = False      # given flat, or flattened above
        scalar = name == self.name or p["kind"] == "real" or name in a.boxed
        if struct and (isinstance(value, dict) or isinstance(value, (list, tuple)) and value
                       and all(isinstance(item, dict) for item in value)):
            if nbdirs is not None:
                raise TypeError(f"{what}(): {kind}[{name!r}]: with nbdirs, give an array "
                                f"of shape ({nbdirs}, {n}) (the fields flattened)")
            layout = _type_layout(self._ffi.typeof(p["elem"]))
            value = _node_flatten(layout, value, f"{kind}[{name!r}]") \
                if isinstance(value, dict) else \
                [x for k, item in enumerate(value)
                 for x in _node_flatten(layout, item, f"{kind}[{name!r}][{k}]")]
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{what}(): {kind}[{name!r}] must be "
                            f"{'a number' if scalar and nbdirs is None else 'an array'}, got "
                            f"{type(value).__name__}") from None
        shape = () if scalar else (n,) if name in a.handles else a.shapes[name]
        lead = () if nbdirs is None else (nbdirs,)
        ok = arr.shape == lead + tuple(shape) or arr.shape == lead + (n,) or \
            (scalar and nbdirs is None and arr.size == 1)
        if not ok:
            exp = lead + tuple(shape)
            raise ValueError(f"{what}(): {kind}[{name!r}] has shape {arr.shape}, expected "
                             f"{exp if exp else 'a number'}"
                             + (f" ({nbdirs} directions)" if nbdirs is not None else ""))
        return np.ascontiguousarray(arr.reshape(lead + (n,)), dtype=dt)

    def _check_names(self, what, given, allowed, kind, role):
        if not isinstance(given, dict):
            raise TypeError(f"{what}(): {kind} must be a dict name -> value, got "
                            f"{type(given).__name__}")
        for k in given:
            if k not in allowed:
                raise ValueError(f"{what}(): {kind}: {k!r} is not {role} of {self.head} "
                                 f"({role.split()[-1]}s: {', '.join(allowed)})")

    def _shape_out(self, a, name, flat, out=False):
        """A result for `name` (a flat array) in the user's shape; a float for scalars, a
        dict of its floating-point fields for a struct; for a handle, a dict of its parts
        as a dependent (out) or an independent."""
        if name in a.handles:
            return _node_dict(a.handles[name]["out" if out else "full"],
                              iter(float(x) for x in flat))
        if name == self.name or self._by_name[name]["kind"] == "real" or name in a.boxed:
            return float(flat[0])
        if self._by_name[name]["kind"] in ("struct", "struct_ptr"):
            layout = _type_layout(self._ffi.typeof(self._by_name[name]["elem"]))
            values = iter(flat)
            if self._ffi.typeof(a.values[name]).kind == "array":     # a list of structs
                return [_node_dict(layout, values) for _ in range(len(a.values[name]))]
            return _node_dict(layout, values)
        return flat.reshape(a.shapes[name])

    def _tangent(self, a, tangents):
        """One f_d call; tangents {independent: flat array}; returns {dependent: flat}."""
        ffi = self._ffi
        vals = a.fresh()
        c = self._cvals(vals)
        cargs, outs = [], {}
        for p in self._params:
            n = p["name"]
            if p["kind"] == "length":
                continue        # last of all (_lengths)
            cargs.append(c[n])
            if not p["role"]:
                continue
            if p["kind"] == "array":
                t = np.zeros(vals[n].size, dtype=vals[n].dtype)
                if n in tangents:
                    t[:] = tangents[n]
                outs[n] = t
                cargs.append(ffi.from_buffer(p["elem"] + "[]", t))
            elif n in a.handles:
                t = self._derivative_handle(a, n, vals[n], tangents.get(n), "full")
                outs[n] = t
                cargs.append(t[0] if p["kind"] == "struct" else t)
            elif p["kind"] in ("struct", "struct_ptr"):
                t = self._new_struct(p, tangents.get(n), self._structs(vals[n]))
                outs[n] = t
                cargs.append(t[0] if p["kind"] == "struct" else t)
            else:
                cargs.append(float(tangents[n][0]) if n in tangents else 0.0)
        res_ptr = None
        if self._meta["ret_active"]:
            res_ptr = ffi.new(self._meta["ret"]["cdef"] + " *")
            cargs.append(res_ptr)
        r = getattr(self._lib, self._sym["forward"])(*cargs, *self._lengths(c))
        out = {d: (np.array([r], dtype=np.float64) if d == self.name else
                   self._parts(a, d, outs[d], out=True) if d in a.handles else
                   self._flat(d, outs[d])) for d in self.dependents}
        primal = self._primal_results(a, vals)
        primal["return"] = res_ptr[0] if res_ptr is not None else r
        return out, primal

    def _lengths(self, c):
        """The lengths of the CHARACTER arguments, which the derivative routines take
        after all the others."""
        return [c[p["name"]] for p in self._params if p["kind"] == "length"]

    def _primal_results(self, a, vals):
        """What a derivative routine left in the copies of the arguments: the arrays, and
        the outputs of the handle dependents (flat)."""
        primal = {n: vals[n] for n in a.arrays}
        for n in self.dependents:
            if n in a.handles:
                primal[n] = self._parts(a, n, vals[n], out=True)
        return primal

    def _derivative_handle(self, a, name, value, flat, layout):
        """The derivative struct of handle `name` (value: its primal, or a copy of it): the
        same type, its pointers leading to new arrays of the same lengths (and new
        structs), its parts zero, or set from flat along the layout ("full" or "out")."""
        h = a.handles[name]
        d = _handle_copy(self._ffi, h["full"], h["ctype"], value if h["byvalue"] else value[0],
                         a.keep, zero=True)
        if flat is not None:
            _node_write(self._ffi, h[layout], d[0], iter(float(x) for x in flat))
        return d

    def _parts(self, a, name, v, out=False):
        """The parts of handle `name` (v: the struct, or a pointer to it) as a flat array:
        those of a dependent (out) or of an independent."""
        h = a.handles[name]
        res = []
        _node_read(self._ffi, h["out" if out else "full"], v if h["byvalue"] else v[0], res)
        return np.array(res, dtype=np.float64)

    def _set_part(self, a, name, v, j, value):
        """Sets part j (as an independent) of handle `name` (v: the struct, or a pointer
        to it, changed in place); returns the value stored."""
        h = a.handles[name]
        flat = self._parts(a, name, v)
        flat[j] = value
        _node_write(self._ffi, h["full"], v if h["byvalue"] else v[0], iter(flat.tolist()))
        return float(self._parts(a, name, v)[j])

    def _labels(self, a, name, out=False):
        """`m.h`, `m.x[2]`, `m.mat.k[0]`: the labels of the parts of handle `name`."""
        return _node_labels(a.handles[name]["out" if out else "full"], name)

    def _adjoint(self, a, seeds):
        """One f_b call; seeds {dependent: flat array}; returns {independent: flat}."""
        ffi = self._ffi
        vals = a.fresh()
        c = self._cvals(vals)
        cargs, outs = [], {}
        for p in self._params:
            n = p["name"]
            if p["kind"] == "length":
                continue        # last of all (_lengths)
            cargs.append(c[n])
            if not p["role"]:
                continue
            if p["kind"] == "array":
                b = np.zeros(vals[n].size, dtype=vals[n].dtype)
                if n in seeds:
                    b[:] = seeds[n]
                outs[n] = b
                cargs.append(ffi.from_buffer(p["elem"] + "[]", b))
            elif n in a.handles:
                outs[n] = self._derivative_handle(a, n, vals[n], seeds.get(n), "out")
                cargs.append(outs[n])
            elif p["kind"] in ("struct", "struct_ptr"):
                outs[n] = self._new_struct(p, seeds.get(n), self._structs(vals[n]))
                cargs.append(outs[n])
            else:
                outs[n] = ffi.new(p["elem"] + " *", 0.0)
                cargs.append(outs[n])
        if self._meta["ret_active"]:
            seed = float(seeds[self.name][0]) if self.name in seeds else 0.0
            cargs.append(self._ffi.new(self._meta["ret"]["cdef"] + " *", seed)
                         if self._fortran else seed)
        getattr(self._lib, self._sym["reverse"])(*cargs, *self._lengths(c))
        res = {}
        for n in self.independents:
            res[n] = self._parts(a, n, outs[n]) if n in a.handles else self._flat(n, outs[n])
        return res, self._primal_results(a, vals)

    def _structs(self, v):
        """How many structs a struct argument's value holds (an array of them or one)."""
        return len(v) if self._ffi.typeof(v).kind == "array" else 1

    def _new_struct(self, p, flat, count=1):
        """New structs of parameter p's type (a pointer to one, or an array of count of
        them), their floating-point fields set from flat (zero when None), which also
        tells how many there are."""
        t = self._ffi.typeof(p["elem"])
        if flat is not None:
            count = max(1, len(flat) // max(1, _struct_count(t)))
        if count == 1:
            ptr = self._ffi.new(p["elem"] + " *")
        else:
            ptr = self._ffi.new(f"{p['elem']}[{count}]")
        if flat is not None:
            values = iter(float(x) for x in flat)
            for k in range(count):
                _node_write(self._ffi, _type_layout(t), ptr[k], values)
        return ptr

    def _flat(self, name, v):
        """A derivative routine's result for `name` as a flat array: an array as it is, a
        scalar's or a struct's values (the struct itself or a pointer to it)."""
        if isinstance(v, np.ndarray):
            return v
        p = self._by_name[name]
        if p["kind"] in ("struct", "struct_ptr"):
            out, t, kind = [], self._ffi.typeof(p["elem"]), self._ffi.typeof(v).kind
            for item in (list(v) if kind == "array" else [v[0] if kind == "pointer" else v]):
                _node_read(self._ffi, _type_layout(t), item, out)
            return np.array(out, dtype=np.float64)
        return np.array([v[0]], dtype=np.float64)

    def _write_flat(self, name, v, flat):
        """Sets the floating-point values of struct argument `name` (v: the struct, a pointer
        to it or an array of them, changed in place) from flat, in _flat's order; its other
        fields (integers, say) keep their values."""
        p = self._by_name[name]
        t, kind = self._ffi.typeof(p["elem"]), self._ffi.typeof(v).kind
        values = iter(float(x) for x in flat)
        if kind == "array":
            for item in v:
                _node_write(self._ffi, _type_layout(t), item, values)
        else:
            _node_write(self._ffi, _type_layout(t), v[0] if kind == "pointer" else v, values)

    def _vector(self, a, tangents, nbdirs):
        """One f_dv call; tangents {independent: (nbdirs, n) array}; returns {dependent:
        (nbdirs, n)}."""
        ffi = self._ffi
        vals = a.fresh()
        c = self._cvals(vals)
        cargs, outs = [], {}
        for p in self._params:
            n = p["name"]
            if p["kind"] == "length":
                continue        # last of all (_lengths)
            cargs.append(c[n])
            if not p["role"]:
                continue
            size = 1 if p["kind"] == "real" else vals[n].size
            dt = numpy_dtype(p["elem"], ffi)
            t = np.zeros((size, nbdirs), dtype=dt)      # element i, direction k: [i, k]
            if n in tangents:
                t[...] = tangents[n].T
            outs[n] = t
            cargs.append(ffi.from_buffer(p["elem"] + "[]", t))
        if self._meta["ret_active"]:
            outs[self.name] = np.zeros((1, nbdirs), dtype=numpy_dtype(self._meta["ret"]["cdef"], ffi))
            cargs.append(ffi.from_buffer(self._meta["ret"]["cdef"] + "[]", outs[self.name]))
        cargs.append(ffi.new("int *", nbdirs) if self._fortran else nbdirs)
        getattr(self._lib, self._sym["vector"])(*cargs, *self._lengths(c))
        return {d: np.ascontiguousarray(outs[d].T) for d in self.dependents}

    def vjp(self, *args, seeds, **kwargs):
        """Vector-Jacobian product: the adjoints of the independents for `seeds`, a dict
        dependent name -> array shaped like that argument (the function's name for its
        return value, with a number). Dependents without a seed get zero."""
        what = f"{self.name}.vjp"
        a = self._convert(what, args, kwargs)
        self._check_names(what, seeds, self.dependents, "seeds", "a dependent")
        flat = {k: self._seed_array(what, a, k, v, "seeds") for k, v in seeds.items()}
        res, _ = self._adjoint(a, flat)
        return {n: self._shape_out(a, n, v) for n, v in res.items()}

    def jvp(self, *args, tangents, nbdirs=None, **kwargs):
        """Jacobian-vector product: the tangents of the dependents for `tangents`, a dict
        independent name -> array shaped like that argument (a number for a by-value
        scalar). Independents without a tangent get zero. With nbdirs=k, each tangent has a
        leading axis of k directions, so does each result, and one call of f_dv computes
        them all."""
        what = f"{self.name}.jvp"
        a = self._convert(what, args, kwargs)
        self._check_names(what, tangents, self.independents, "tangents", "an independent")
        if nbdirs is None:
            flat = {k: self._seed_array(what, a, k, v, "tangents") for k, v in tangents.items()}
            res, _ = self._tangent(a, flat)
            return {n: self._shape_out(a, n, v, out=True) for n, v in res.items()}
        if isinstance(nbdirs, bool) or not isinstance(nbdirs, numbers.Integral) or nbdirs < 1:
            raise ValueError(f"{what}(): nbdirs must be a positive int, got {nbdirs!r}")
        if not self.vector:
            raise RuntimeError(f"{what}(): vector mode is not available for {self.head}: "
                               f"{self.vector_error}")
        nbdirs = int(nbdirs)
        flat = {k: self._seed_array(what, a, k, v, "tangents", nbdirs)
                for k, v in tangents.items()}
        res = self._vector(a, flat, nbdirs)
        return {n: self._shape_out_dirs(a, n, v) for n, v in res.items()}

    def _shape_out_dirs(self, a, name, flat):
        if name == self.name or name in a.boxed:
            return flat[:, 0].copy()
        return flat.reshape((flat.shape[0],) + tuple(a.shapes[name]))

    def gradient(self, *args, **kwargs):
        """The gradient of the one scalar dependent (the return value, or an output array
        of one element) with respect to each independent: {name: array shaped like the
        argument, or a float for a by-value scalar}."""
        what = f"{self.name}.gradient"
        a = self._convert(what, args, kwargs)
        sizes = {d: self._size(a, d, out=True) for d in self.dependents}
        if len(self.dependents) != 1 or sizes[self.dependents[0]] != 1:
            desc = ", ".join(f"{d} ({sizes[d]} value{'s' * (sizes[d] != 1)})"
                             for d in self.dependents)
            raise ValueError(f"{what}(): a gradient needs one scalar dependent; {self.head} "
                             f"has {desc}: use vjp() or jacobian()")
        d = self.dependents[0]
        res, _ = self._adjoint(a, {d: np.ones(1)})
        return {n: self._shape_out(a, n, v) for n, v in res.items()}

    def jacobian(self, *args, method="auto", **kwargs):
        """{(dependent, independent): J} with J[i, j] = d dep.flat[i] / d indep.flat[j]
        (a scalar counts as one element), for every pair. method: 'reverse' (one f_b call per
        dependent element), 'forward' (one f_d call per independent element), 'vector' (one
        f_dv call) or 'auto' (reverse when there are fewer dependent than independent
        elements, else vector when available, else forward)."""
        what = f"{self.name}.jacobian"
        a = self._convert(what, args, kwargs)
        nout = {d: self._size(a, d, out=True) for d in self.dependents}
        nin = {x: self._size(a, x) for x in self.independents}
        if method == "auto":
            method = "reverse" if sum(nout.values()) < sum(nin.values()) else \
                "vector" if self.vector else "forward"
        if method not in ("reverse", "forward", "vector"):
            raise ValueError(f"{what}(): method must be 'auto', 'reverse', 'forward' or "
                             f"'vector', got {method!r}")
        if method == "vector" and not self.vector:
            raise RuntimeError(f"{what}(): vector mode is not available for {self.head}: "
                               f"{self.vector_error}")
        J = {(d, x): np.zeros((nout[d], nin[x])) for d in self.dependents
             for x in self.independents}
        if method == "reverse":
            for d in self.dependents:
                for i in range(nout[d]):
                    e = np.zeros(nout[d])
                    e[i] = 1.0
                    res, _ = self._adjoint(a, {d: e})
                    for x in self.independents:
                        J[d, x][i, :] = res[x]
        elif method == "forward":
            for x in self.independents:
                for j in range(nin[x]):
                    e = np.zeros(nin[x])
                    e[j] = 1.0
                    res, _ = self._tangent(a, {x: e})
                    for d in self.dependents:
                        J[d, x][:, j] = res[d]
        else:
            total = sum(nin.values())
            tangents, k = {}, 0
            for x in self.independents:
                t = np.zeros((total, nin[x]))
                t[k:k + nin[x], :] = np.eye(nin[x])
                tangents[x] = t
                k += nin[x]
            res = self._vector(a, tangents, total)
            k = 0
            for x in self.independents:
                for d in self.dependents:
                    J[d, x][:, :] = res[d][k:k + nin[x], :].T
                k += nin[x]
        return J
