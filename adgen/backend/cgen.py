"""The C back end: prints IR through the Jinja2 templates in adgen/templates/.

Expressions print through adgen/ir/c_text.py (an operator-precedence printer, the inverse
of the parser); every statement form, declaration and file-level piece of text lives in
the templates.
"""
import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import List, Optional

import jinja2

from adgen import ir
from adgen.rules import POSIX_MATH
from adgen.ir.c_text import LP64_SIZES, declare, expr_c, type_name
from adgen.ir.exprs import constant_value, used_calls, used_symbols
from adgen.ir.generated import GenFunction, LocalDecl, local_type
from adgen.analysis.whole_array import element_count, set_before_read, used_elements

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


# the derivative routines of non-blocking MPI: routine, bases of a completion, precision, mode
_NON_BLOCKING = re.compile(
    r"adgen_mpi_(Isend|Irecv|Wait|Waitall)_(?:(\d+)_)?(double|float)_(b|d|dv)$")


_BLOCKING = re.compile(r"adgen_mpi_(Send|Recv|Sendrecv)_(double|float)_b$")


@dataclass(eq=False)
class OutputUnit:
    source: str
    mode: str                  # 'reverse' | 'forward'
    heads: List[str]
    std_headers: List[str]
    type_text: List[str]
    globals_extern: List[ir.Symbol]
    globals_static: List[ir.Symbol]
    shadow_globals: List[LocalDecl]
    prototypes: List[ir.Function]
    functions: List[GenFunction]
    command: str = ""
    stack: str = "heap"        # 'heap' | 'static' (see static_stack.c.j2)
    stack_size: str = ""       # C constant expression: bytes of the static stack
    stack_note: str = ""       # where that size comes from
    overflow_flag: str = ""    # the static stack's overflow flag
    builtin_rules: List[str] = field(default_factory=list)  # NAME_b / NAME_d to define

    @property
    def mpi_routines(self):
        """The derivative routines of MPI calls among builtin_rules
        (`adgen_mpi_Send_double_b`: templates/mpi_rules.c.j2)."""
        return [name for name in self.builtin_rules if name.startswith("adgen_mpi_")]

    @property
    def mpi_requests(self):
        """What the output's derivatives of non-blocking MPI need
        (templates/mpi_requests.c.j2): None when it has none."""
        found = [m for m in map(_NON_BLOCKING.match, self.mpi_routines) if m]
        if not found:
            return None
        done = set()
        out = SimpleNamespace(tangent=False, scalar=False, adjoint=False, wait_f=False,
                              waitall_f=False, reverse=set(), vector=set(), completions=[])
        # blocking point-to-point calls beside them: their adjoints keep the channels'
        # order too
        out.blocking = any(_BLOCKING.match(name) for name in self.mpi_routines)
        for m in found:
            routine, bases, precision, mode = m.groups()
            out.tangent |= mode in ("d", "dv")
            out.scalar |= mode == "d"
            if mode == "dv":
                out.vector.add(precision)
            out.adjoint |= mode == "b"
            if bases is None:
                continue
            out.wait_f |= mode == "b" and routine == "Wait"
            out.waitall_f |= mode == "b" and routine == "Waitall"
            if mode == "b":
                out.reverse.add(precision)
            name = m.group(0)[:-len(mode) - 1]
            if (name, mode) not in done:
                done.add((name, mode))
                out.completions.append(SimpleNamespace(
                    name=name, routine=routine, type=precision, mode=mode,
                    bases=[f"base{k}" for k in range(int(bases))]))
        out.blocking &= out.adjoint
        return out

    @property
    def builtin_kernels(self):
        """The kernels and modes of builtin_rules (`ddot_b`), however the names are spelt:
        cblas_ddot_b (C), ddot_b (Fortran input), ddot__b (the Fortran BLAS called from C)."""
        out = set()
        for name in self.builtin_rules:
            if name in self.mpi_routines:
                continue
            base, mode = name.rsplit("_", 1)
            if base.startswith("cblas_"):
                base = base[len("cblas_"):]
            out.add(base.rstrip("_") + "_" + mode)
        return out


def zero_value(t):
    """The initial value of a local scalar: every scalar of generated code starts defined."""
    r = t.resolved()
    if isinstance(r, ir.Ptr):
        return "NULL"
    if getattr(r, "name", "") == "float":
        return "0.0f"
    return "0.0" if r.is_float else "0"


# ------------------------------------------------------------------ statements

def stmt_kind(s):
    return type(s).__name__


def source_note(s, state):
    """`file:line` the first time a statement of a new source line is printed."""
    loc = getattr(s, "loc", None)
    if loc is None or not loc.line:
        return ""
    key = (loc.file, loc.line)
    if state.get("last") == key:
        return ""
    state["last"] = key
    return f"{Path(loc.file).name}:{loc.line}"


def comment_text(text):
    """Text from the input or the command line (file names, the command, pragma text) as it
    goes inside a C block comment: it can neither end the comment (`*/`) nor open another
    (`/*`, which -Wcomment reports), nor spell a trigraph."""
    return str(text).replace("*/", "* /").replace("/*", "/ *").replace("??", "? ?")


def fortran_comment_text(text):
    """Text as it goes into a Fortran `!` comment: one line."""
    return " ".join(str(text).split("\n")).replace("\r", " ")


_OPTIONS = dict(trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                undefined=jinja2.StrictUndefined, autoescape=False)


class _TemplateCache(jinja2.FileSystemBytecodeCache):
    """Jinja's cache of compiled templates, in a directory of the user's own that Jinja
    creates mode 0700 in the temporary directory and checks before use: compiling the
    templates is most of the time of a small run. An entry is used only for the same
    template text (Jinja compares a checksum) under the same options and Jinja version (in
    the file names); one that cannot be written is left out."""

    def __init__(self):
        tag = hashlib.sha1(repr((sorted((k, str(v)) for k, v in _OPTIONS.items()),
                                 jinja2.__version__)).encode()).hexdigest()[:12]
        super().__init__(pattern=f"adgen-{tag}-%s.cache")

    def load_bytecode(self, bucket):
        try:
            super().load_bytecode(bucket)
        except Exception:       # a damaged entry: compiled again (and written anew)
            bucket.reset()

    def dump_bytecode(self, bucket):
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _template_cache():
    """The cache, or None where the directory cannot be had (read-only, not the user's)."""
    if os.environ.get("ADGEN_NO_TEMPLATE_CACHE"):
        return None
    try:
        return _TemplateCache()
    except (OSError, RuntimeError):
        return None


def _env():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             bytecode_cache=_template_cache(), **_OPTIONS)
    env.filters["c"] = expr_c
    env.filters["comment"] = comment_text
    env.filters["fcomment"] = fortran_comment_text
    env.filters["decl"] = lambda sym: declare(sym.type, sym.name)
    env.filters["local_decl"] = lambda sym: declare(local_type(sym.type), sym.name)
    env.filters["declare"] = declare
    env.filters["type_name"] = type_name
    env.filters["kind"] = stmt_kind
    env.filters["zero_value"] = zero_value
    env.filters["addr"] = lambda e: expr_c(ir.AddrOf(e, None), 2)
    env.globals["source_note"] = source_note
    env.globals["signature"] = signature
    env.globals["ir"] = ir
    env.tests["lvalue"] = ir.is_lvalue
    return env


_ENV = None


def env():
    global _ENV
    if _ENV is None:
        _ENV = _env()
    return _ENV


def function_template():
    """templates/function.c.j2, loaded once (the environment would look at the file's
    time at each function)."""
    global _FUNCTION_TEMPLATE
    if _FUNCTION_TEMPLATE is None:
        _FUNCTION_TEMPLATE = env().get_template("function.c.j2")
    return _FUNCTION_TEMPLATE


_FUNCTION_TEMPLATE = None


def _read_symbols(stmts):
    """Symbols whose value some statement reads (a plain `v = ...` writes v, no more)."""
    out = set()
    for s in ir.stmts_walk(stmts):
        exprs = list(ir.stmt_exprs(s))
        if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref):
            exprs = [s.rhs]
        if isinstance(s, ir.Raw):
            exprs += [v for v in s.args.values() if isinstance(v, ir.Expr)]
        if isinstance(s, ir.For):
            exprs += [x.rhs for x in s.init + s.step]
        for e in exprs:
            out |= {x.sym for x in ir.walk(e) if isinstance(x, ir.Ref)}
            out |= {x.sym for sub in ir.walk(e) if isinstance(sub, ir.SizeOf) and
                    isinstance(sub.of, ir.Expr) for x in ir.walk(sub.of)
                    if isinstance(x, ir.Ref)}
    return out


def drop_unread_shadows(stmts):
    """Remove assignments to derivative variables nothing reads (a shadow pointer set
    alongside its primal but never dereferenced): gcc would warn about them."""
    while True:
        read = _read_symbols(stmts)

        def dead(s):
            if not (isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref)) or \
                    s.lhs.sym in read:
                return False
            sym = s.lhs.sym
            if getattr(sym, "primal", None) is not None and sym.kind == "local":
                return True
            if getattr(sym, "is_flag", False):
                return True
            # a value stored in a local and never read (a dead store of the source)
            return sym.kind in ("local", "temp") and not any(
                isinstance(x, ir.Call) for x in ir.walk(s.rhs)) and \
                not sym.type.resolved().is_array

        changed = [False]

        def clean(lst):
            out = []
            for s in lst:
                if dead(s):
                    changed[0] = True
                    continue
                if isinstance(s, ir.Block):
                    s.stmts = clean(s.stmts)
                elif isinstance(s, ir.If):
                    s.then.stmts = clean(s.then.stmts)
                    if s.other:
                        s.other.stmts = clean(s.other.stmts)
                elif isinstance(s, (ir.For, ir.While, ir.DoWhile)):
                    s.body.stmts = clean(s.body.stmts)
                out.append(s)
            return out

        stmts[:] = clean(stmts)
        if not changed[0]:
            return stmts


def _declaration_reads(d: LocalDecl):
    """The variables a local's declaration reads: in its array size and initial value."""
    t = d.sym.type
    exprs = ([t.size] if isinstance(t, ir.Arr) and t.size is not None else []) + \
        ([d.init] if d.init is not None else [])
    return {s.sym for e in exprs for s in ir.walk(e) if isinstance(s, ir.Ref)}


# A local array larger than this goes to static memory, as gfortran puts it there
# (-fmax-stack-var-size) unless its procedure recurses: the derivative code holds a copy and
# a shadow of it, and a glacier model's four 15 MB locals would overflow an 8 MB stack.
LARGE_LOCAL_BYTES = 65536


def _elements_read(stmts, sym) -> bool:
    """True when stmts name the array sym other than as the array an assignment sets an
    element of (`a[i] = ...`)."""
    for st in ir.stmts_walk(stmts):
        exprs = list(ir.stmt_exprs(st))
        if isinstance(st, ir.Raw):
            exprs += [v for v in st.args.values() if isinstance(v, ir.Expr)]
        if isinstance(st, ir.Assign):
            target = st.lhs
            while isinstance(target, ir.Index):
                exprs.append(target.index)
                target = target.base
            if isinstance(target, ir.Ref) and target.sym is sym:
                exprs.remove(st.lhs)
        if any(isinstance(e, ir.Ref) and e.sym is sym for x in exprs for e in ir.walk(x)):
            return True
    return False


def constant_bytes(t) -> Optional[int]:
    """The bytes of a number or an array of constant extents of numbers (x86-64 sizes);
    None for anything else."""
    t = t.resolved()
    count = 1
    while isinstance(t, ir.Arr):
        n = constant_value(t.size) if t.size is not None else None
        if not isinstance(n, int):
            return None
        count *= n
        t = t.elem.resolved()
    size = LP64_SIZES.get(f"sizeof({type_name(t)})")
    return None if size is None else count * size


def growing_array(sym, body) -> Optional[str]:
    """The length (C text) of a local array of numbers whose length is a constant times a
    run-time value and whose constant part alone is large (a vector-mode shadow,
    `double workd[500000 * nbdirs]`), when the body never takes its sizeof; else None."""
    t = sym.type.resolved()
    if getattr(sym, "primal", None) is None or not isinstance(t, ir.Arr) or t.size is None:
        return None
    element = constant_bytes(t.elem)
    if element is None:
        return None
    constant, variable, todo = 1, False, [t.size]
    while todo:         # the factors of the length
        e = todo.pop()
        if isinstance(e, ir.Binary) and e.op == "*":
            todo += [e.left, e.right]
        elif isinstance(constant_value(e), int):
            constant *= constant_value(e)
        else:
            variable = True
    if not variable or constant * element <= LARGE_LOCAL_BYTES:
        return None
    if any(isinstance(e, ir.SizeOf) and isinstance(e.of, ir.Expr) and
           sym in {r.sym for r in ir.walk(e.of) if isinstance(r, ir.Ref)}
           for st in ir.stmts_walk(body) for top in ir.stmt_exprs(st) for e in ir.walk(top)):
        return None
    return expr_c(t.size)


def recursive_functions(functions) -> set:
    """Names of the functions of the output that can call themselves (on a cycle of the
    calls between them)."""
    names = {f.name for f in functions}
    calls = {f.name: used_calls(f.body) & names for f in functions}
    out = set()
    for start in names:
        seen, todo = set(), list(calls[start])
        while todo:
            n = todo.pop()
            if n == start:
                out.add(start)
                break
            if n not in seen:
                seen.add(n)
                todo += calls[n]
    return out


def render_function(fn: GenFunction, stack="heap", recursive=True) -> str:
    drop_unread_shadows(fn.body)
    used, read_in_body = used_symbols(fn.body, both=True)
    # a local declared reads what its array size and its initial value read
    grown = True
    while grown:
        grown = False
        for d in fn.locals:
            if d.sym in used and not _declaration_reads(d) <= used:
                used |= _declaration_reads(d)
                grown = True
    decls = [d for d in fn.locals if d.sym in used]
    unused_params = [p for p in fn.params if p not in used]
    # a scalar the program sets and never reads (gcc: -Wunused-but-set-variable)
    read = read_in_body.union(*map(_declaration_reads, decls))
    set_only = [d.sym for d in decls if d.sym not in read and
                not (d.sym.type.is_array or d.sym.type.is_struct)]
    # a parameter passed by value that is only set (an adjoint result's seed consumed,
    # whose contributions all cancel): -Wunused-but-set-parameter
    set_only += [p for p in fn.params if p in used and p not in read and
                 not (p.type.is_array or p.type.is_struct or
                      isinstance(p.type.resolved(), ir.Ptr))]
    large = set() if recursive else \
        {d.sym for d in decls if d.init is None and
         (constant_bytes(d.sym.type) or 0) > LARGE_LOCAL_BYTES}
    # a large shadow whose length is known at run time: a buffer kept from call to call,
    # grown when a call needs more
    grown = {} if recursive or stack == "static" else \
        {d.sym: (declare(ir.Ptr(d.sym.type.resolved().elem), d.sym.name), length)
         for d in decls if d.sym not in large and d.init is None and
         (length := growing_array(d.sym, fn.body)) is not None}
    # an array set whole before anything reads it starts as it is: a large work array
    # filled by a loop is not cleared on every call
    zeroed = [d for d in decls if (d.sym.type.is_array or d.sym.type.is_struct) and
              d.sym not in grown and not set_before_read(fn.body, d.sym)]
    # an array set and never read, no longer cleared, is set only (gcc warns as above)
    set_only += [d.sym for d in decls if d.sym.type.is_array and d.sym not in grown and
                 d not in zeroed and not _elements_read(fn.body, d.sym)]
    # of a large array the code uses in part, only the elements between its first and
    # last use
    parts = {}
    for d in zeroed:
        if d.sym in large and (used := used_elements(fn.body, d.sym)) is not None:
            first, last = used
            if last - first + 1 < element_count(d.sym.type):
                parts[d.sym] = (first, last - first + 1,
                                type_name(ir.array_element(d.sym.type)))
    return function_template().render(fn=fn, decls=decls, stack=stack,
                                      unused_params=unused_params, set_only=set_only,
                                      large=large, grown=grown, zeroed=zeroed, parts=parts,
                                      state={})


# helpers of templates/runtime.c.j2 that call another: erfc_scaled's derivative calls it,
# the float ones round the double ones
_HELPER_NEEDS = {"adgen_erfc_scaled_slope": "adgen_erfc_scaled",
                 "adgen_erfc_scaled_slopel": "adgen_erfc_scaledl",
                 "adgen_erfc_scaled_slopef": "adgen_erfc_scaled_slope",
                 "adgen_erfc_scaledf": "adgen_erfc_scaled",
                 "adgen_erfc_scaledl": None, "adgen_erfc_scaled": None,
                 "adgen_root_displaced_length": "adgen_displaced_length"}


def render_unit(unit: OutputUnit) -> str:
    recursive = recursive_functions(unit.functions)
    bodies = [render_function(f, unit.stack, f.name in recursive) for f in unit.functions]
    text = "\n".join(bodies)
    helpers = {name for name in ("adgen_push", "adgen_pop", "adgen_push_int", "adgen_pop_int",
                                 "adgen_digamma", "adgen_digammaf", "adgen_digammal",
                                 "adgen_pow_di",
                                 "adgen_imax", "adgen_pop_keep", "adgen_keep", "adgen_release",
                                 "adgen_stack_alloc", "adgen_log_mark",
                                 "adgen_defer_free", "adgen_was_freed",
                                 "adgen_checkpoint_split", "adgen_str_cmp", "adgen_len_trim",
                                 "adgen_len_lead", "adgen_str_index",
                                 "adgen_shape_error", "adgen_stop", "adgen_threads",
                                 "adgen_all_ranks_length", "adgen_root_ranks_length",
                                 "adgen_displaced_length", "adgen_root_displaced_length")
               if name + "(" in text}
    helpers |= {name for name in _HELPER_NEEDS if name + "(" in text}
    for name in sorted(helpers):
        while _HELPER_NEEDS.get(name) is not None:
            name = _HELPER_NEEDS[name]
            helpers.add(name)
    if helpers & {"adgen_push", "adgen_pop", "adgen_push_int", "adgen_pop_int",
                   "adgen_pop_keep", "adgen_keep", "adgen_stack_alloc"}:
        helpers.add("stack")
    if "#pragma omp" in text:
        helpers.add("openmp")       # (compiled without -fopenmp, the pragmas are ignored)
    headers = ["math.h", "stdlib.h", "string.h"] + \
        (["stdio.h"] if helpers & {"adgen_shape_error", "adgen_stop"} or
         unit.mpi_requests is not None else [])
    for h in unit.std_headers:
        if h not in headers:
            headers.append(h)
    defined = {f.name for f in unit.functions}
    called = set(re.findall(r"\b([A-Za-z_]\w*)\(", text))    # (one pass over the text)
    posix_math = [_posix_prototype(name + suffix, t) for name in POSIX_MATH
                  for suffix, t in (("", "double"), ("f", "float"), ("l", "long double"))
                  if name + suffix not in defined and name + suffix in called]
    return env().get_template("unit.c.j2").render(
        u=unit, bodies=bodies, helpers=helpers, headers=headers, stack=unit.stack,
        posix_math=posix_math,
        stack_size=unit.stack_size, stack_note=unit.stack_note,
        overflow_flag=unit.overflow_flag)


def _posix_prototype(name, t):
    """The declaration of POSIX's math function name (rules.POSIX_MATH) in type t."""
    order = "int, " if name.rstrip("fl") in ("jn", "yn") else ""
    return f"{t} {name}({order}{t});"


def signature(fn) -> str:
    params = ", ".join(declare(p.type, ("restrict " if p in fn.restrict else "") + p.name)
                       for p in fn.params) or "void"
    return ("static " if fn.is_static else "") + declare(fn.ret, f"{fn.name}({params})")
