"""Seeded random C99 program generator for fuzzing adgen.

A program is built as a small AST (Expr / Stmt / Func / Program below) and
rendered to C, so the minimizer can delete statements or functions and render
valid C again.  All choices come from one random.Random(seed): a seed names a
program, and `generate(seed)` is deterministic.

The programs are safe by construction rather than by luck:
 * sizes are fixed by the `arg` lines, so every array index and call offset is
   checked against the concrete lengths with interval arithmetic;
 * every double expression carries a static magnitude bound.  Ordinary
   ("norm") variables stay below CAP: what is stored into them is squashed
   (tanh, scaling) when its bound is larger, `*=` only by factors <= 1, `/=`
   only by divisors >= 1.  Accumulators ("acc") only grow through `+=`/`-=`
   (by increments scaled with the loop trip counts) and are only read through
   bounded functions, so loops cannot blow values up;
 * math functions stay inside their domains and away from singular points:
   sqrt(c + u*u), log(1 + u*u), exp(tanh(u)), pow(1 + u*u, p), atan2(u, c + v*v),
   divisions by (1 + u*u) or (2 + sin(u)), ...
Branches, ternaries, fabs/fmin/fmax and data-dependent loop exits compare values
with a continuous distribution, so a finite-difference step straddles a kink
only rarely; the runner re-checks such a failure with other input seeds.
"""

from __future__ import annotations

import copy
import math
import random
import re
from dataclasses import dataclass
from pathlib import Path

CAP = 4.0  # magnitude kept by ordinary double variables
SQUASH = 20.0  # intermediate expressions above this are squashed with tanh/sin/atan

CORE_FUNCS = ("sin", "cos", "tanh", "atan", "exp", "log", "sqrt", "pow",
              "atan2", "hypot", "fabs", "fmin", "fmax")
EXTRA_FUNCS = ("tan", "sinh", "cosh", "asin", "acos", "log10", "log1p", "expm1", "cbrt")

HEAD_NAME = "fz_head"
LOOP_VARS = ("i", "j", "l", "q")  # for-loop variable by nesting depth


@dataclass
class Config:
    callees: tuple = (0, 3)  # number of helper functions (min, max)
    head_stmts: tuple = (6, 14)  # statement budget of the head
    callee_stmts: tuple = (3, 8)  # statement budget of a helper
    max_depth: int = 3  # nesting of loops / ifs
    funcs: tuple = CORE_FUNCS
    tol: str = "1e-5"
    infer_sizes: float = 0.25  # share of programs that let adgen infer array lengths
    directives: float = 0.15  # share of for loops checkpointed
    call_modes: float = 0.3  # share of call statements given a mode (joint or split) by directive
    fp_loops: float = 0.02  # chance of a fixed-point loop (#pragma adgen fp_loop) per statement
    independent_loops: float = 0.03  # chance of a loop under #pragma adgen independent per statement
    dense_sums: float = 0.03  # chance of a nest relaxing each element toward others of its array
    switches: float = 0.2  # share of if statements written as a switch on their condition
    assign_in_test: float = 0.1  # share of if tests that assign an operand: `(w1 = e) > c`
    blas_products: float = 0.3  # share of BLAS calls that are a gemv or a gemm
    cheap_temps: float = 0.4  # share of new scalars in a loop set to a cheap `c * u + d * v`
    callbacks: float = 0.2  # share of programs with helpers calling one through a pointer
    ternary_calls: float = 0.5  # share of ternaries whose branches may call helpers
    struct_locals: float = 0.35  # share of functions keeping some local doubles in a struct
    global_pointer: float = 0.2  # share of programs whose head reaches a local array through a global
    global_locals: float = 0.25  # share of functions keeping some local doubles in static globals
    double_buffer: float = 0.2  # share of programs whose head swaps two buffers through pointers in a loop
    struct_handles: float = 0.2  # share of programs passing a helper's array as a struct by value
    head_handles: float = 0.18  # share of programs whose head takes arrays in a handle it differentiates
    gotos: float = 0.25  # share of programs whose loops' break and continue are written as goto
    head_handle_const: float = 0.5  # share of a head handle's read-only arrays held as `const double *`
    head_handle_nested_arrays: float = 0.5  # share of a nested head handle's arrays held in the nested struct


# ---------------------------------------------------------------- expressions

class Expr:
    """op: num var idx neg not cast bin call cond addr.  ty: double int bool ptr.
    bound: static |value| bound of a double; lo/hi: static range of an int."""

    __slots__ = ("op", "args", "val", "ty", "bound", "lo", "hi", "uid")

    def __init__(self, op, args=(), val=None, ty="double", bound=0.0, lo=0, hi=0):
        self.op, self.args, self.val, self.ty = op, list(args), val, ty
        self.bound, self.lo, self.hi = bound, lo, hi
        self.uid = None  # set by the minimizer

    def walk(self):
        yield self
        for a in self.args:
            yield from a.walk()


def fmt(v: float) -> str:
    s = repr(float(v))
    return s if ("." in s or "e" in s) else s + ".0"


def num(v: float) -> Expr:
    return Expr("num", val=fmt(v), bound=abs(v))


def inum(v: int) -> Expr:
    return Expr("num", val=str(v), ty="int", lo=v, hi=v, bound=abs(v))


def call(name: str, *args: Expr, bound: float) -> Expr:
    return Expr("call", args, val=name, bound=bound)


def bin_(op: str, l: Expr, r: Expr, bound: float = 0.0, ty: str = "double") -> Expr:
    return Expr("bin", (l, r), val=op, ty=ty, bound=bound)


def add(l, r):
    return bin_("+", l, r, l.bound + r.bound)


def sub(l, r):
    return bin_("-", l, r, l.bound + r.bound)


def mul(l, r):
    return bin_("*", l, r, l.bound * r.bound)


def sq(u):  # u * u
    return mul(u, u)


def ibin(op: str, l: Expr, r: Expr) -> Expr:
    """Integer operation with interval arithmetic (/ and % only on ranges >= 0)."""
    if op == "+":
        lo, hi = l.lo + r.lo, l.hi + r.hi
    elif op == "-":
        lo, hi = l.lo - r.hi, l.hi - r.lo
    elif op == "*":
        ps = [l.lo * r.lo, l.lo * r.hi, l.hi * r.lo, l.hi * r.hi]
        lo, hi = min(ps), max(ps)
    elif op == "/":
        lo, hi = l.lo // r.hi, l.hi // r.lo
    elif op == "%":
        lo, hi = 0, min(l.hi, r.hi - 1)
    else:
        raise ValueError(op)
    return Expr("bin", (l, r), val=op, ty="int", lo=lo, hi=hi, bound=max(abs(lo), abs(hi)))


def cmp(op: str, l: Expr, r: Expr) -> Expr:
    return Expr("bin", (l, r), val=op, ty="bool")


PREC = {"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4,
        "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}
LOGIC = ("&&", "||")


def prec(e: Expr) -> int:
    if e.op == "bin":
        return PREC[e.val]
    if e.op in ("neg", "not", "cast", "addr"):
        return 7
    if e.op == "cond":
        return 0
    if e.op == "num" and e.val.startswith("-"):
        return 7
    return 9


def render_expr(e: Expr) -> str:
    op = e.op
    if op in ("num", "var", "fn"):
        return e.val
    if op == "idx":
        return f"{render_expr(e.args[0])}[{render_expr(e.args[1])}]"
    if op == "call":
        return f"{e.val}({', '.join(render_expr(a) for a in e.args)})"
    if op in ("neg", "not", "cast", "addr"):
        a = e.args[0]
        inner = render_expr(a)
        # parenthesize anything but atoms: avoids `- -x` and `--x`
        if prec(a) < 9 or a.op == "num" and a.val.startswith("-"):
            inner = f"({inner})"
        pre = {"neg": "-", "not": "!", "addr": "&"}.get(op) or f"({e.val})"
        return pre + inner
    if op == "cond":
        c, a, b = (render_expr(x) for x in e.args)
        return f"({c}) ? {a} : {b}"
    if op == "set":
        return f"({render_expr(e.args[0])} = {render_expr(e.args[1])})"
    if op == "bin":
        p = PREC[e.val]
        l, r = e.args

        def side(x, right):
            s = render_expr(x)
            px = prec(x)
            need = px < p or (right and px == p)
            # -Wparentheses: mixed logical operators, comparisons in comparisons
            if e.val in LOGIC and x.op == "bin" and x.val in LOGIC and x.val != e.val:
                need = True
            if x.op == "num" and x.val.startswith("-"):
                need = True
            if x.op == "cond":
                need = True
            return f"({s})" if need else s

        return f"{side(l, False)} {e.val} {side(r, True)}"
    raise ValueError(op)


# ----------------------------------------------------------------- statements

class Case:
    """One group of a switch: its labels (none: `default`), its statements, and how it
    ends: "break", or "fall" into the next group (or out of the switch, for the last)."""

    def __init__(self, labels, body, end="break", braced=False):
        self.labels, self.body, self.end, self.braced = labels, body, end, braced


class Stmt:
    """kind: decl assign incdec expr if for while do switch break continue return free
    goto label.
    pinned statements (initialisation loops, loop counter updates, free, return)
    are kept by the minimizer as long as their variable is."""

    def __init__(self, kind: str, **kw):
        self.kind = kind
        self.pinned = False
        self.owner = None  # for pinned statements: the variable they belong to
        self.pragma = None  # `#pragma adgen` directive rendered before the statement
        self.__dict__.update(kw)

    def blocks(self):
        if self.kind == "if":
            return [b for b in (self.then, self.els) if b is not None]
        if self.kind in ("for", "while", "do"):
            return [self.body]
        if self.kind == "switch":
            return [c.body for c in self.cases]
        return []

    def exprs(self):
        k = self.kind
        if k == "decl":
            return [self.init] if self.init is not None else []
        if k == "assign":
            return [self.lhs, self.rhs]
        if k in ("incdec", "expr", "return"):
            return [self.e] if self.e is not None else []
        if k in ("if", "while", "do", "switch"):
            return [self.cond]
        if k == "for":
            return [self.start, self.end]
        return []


def pin(s: Stmt, owner: str) -> Stmt:
    s.pinned, s.owner = True, owner
    return s


@dataclass
class Param:
    ctype: str
    name: str


@dataclass
class Func:
    name: str
    ret: str
    params: list
    body: list


@dataclass
class Arg:
    """One `arg` line: NAME: TYPE [= INIT]."""
    name: str
    spec: str


# the absolute tolerance of a program with a fixed-point loop (see render)
FP_LOOP_ATOL = "1e-12"


@dataclass
class Program:
    seed: int
    funcs: list  # helpers first, head last
    args: list
    dep: list
    indep: list
    tol: str
    comment: str = ""
    test_seed: int = 1
    uses_malloc: bool = False
    uses_blas: bool = False  # calls CBLAS kernels: adgen's <cblas.h>, reference kernels for gcc
    uses_fortran_blas: bool = False  # calls ddot_ and the like: prototypes for adgen, kernels for gcc
    sizes: str = "give"  # give: the harness passes --size for every array; infer: adgen finds them
    structs: list = None  # lines defining the structs of with_struct_locals
    handle: "HeadHandle" = None  # the head's handle parameter (with_head_handle)

    @property
    def head(self) -> Func:
        return self.funcs[-1]


@dataclass
class HandleField:
    """A field of the head's handle: the head reads it into a local of the same name
    first (`double *x = fz_hd->x;`), or (the output `s`) sets it; or integer data the head
    does not use (`len`, `tag`)."""
    name: str
    ctype: str  # its C type in the struct: "double *", "int", "double"
    spec: str  # the type and init of its field line: "double[n] = uniform(-1, 1)"
    nested: bool = False  # in the struct the handle's `sub` field points to


@dataclass
class HeadHandle:
    """The head's parameter `fz_hd`, a struct holding pointers (`fz_hh`, by pointer or by
    value) that carries some of what the head took as parameters: arrays, the scalar `a`,
    the sizes, some in a nested struct (`fz_hs`) its field `sub` points to; an output
    field `s` now and then."""
    pointer: bool
    const: bool  # `const fz_hh *`
    fields: list  # [HandleField], in the order of the struct
    name: str = "fz_hd"
    stype: str = "fz_hh"
    subtype: str = "fz_hs"

    def nested(self) -> bool:
        return any(f.nested for f in self.fields)

    def access(self, f: HandleField) -> str:
        top = self.name + ("->" if self.pointer else ".")
        return top + ("sub->" if f.nested else "") + f.name

    def param(self) -> Param:
        if not self.pointer:
            return Param(self.stype, self.name)
        return Param(("const " if self.const else "") + self.stype + " *", self.name)

    def typedefs(self) -> list:
        out = []
        decl = lambda f: f"{f.ctype}{'' if f.ctype.endswith('*') else ' '}{f.name};"
        if self.nested():
            out.append("typedef struct { " + " ".join(decl(f) for f in self.fields if f.nested)
                       + f" }} {self.subtype};")
        top = [decl(f) for f in self.fields if not f.nested]
        if self.nested():
            top.insert(0, f"{self.subtype} *sub;")
        out.append("typedef struct { " + " ".join(top) + f" }} {self.stype};")
        return out

    def lines(self) -> list:
        """The arg line and the field lines of the adgen-test block."""
        out = [f"arg {self.name}: {self.stype}{'*' if self.pointer else ''} = handle"]
        out += [f"field {self.name}.{f.name}: {f.spec}" for f in self.fields if not f.nested]
        if self.nested():
            out.append(f"field {self.name}.sub: {self.subtype}*")
            out += [f"field {self.name}.sub.{f.name}: {f.spec}" for f in self.fields if f.nested]
        return out


# The CBLAS kernels st_blas calls, for gcc's build of the program, copied in so that it
# stands alone (adgen reads its own <cblas.h> and never sees these)
REFERENCE_CBLAS = (Path(__file__).resolve().parents[2] / "testsuite" / "c" / "include" /
                   "cblas_reference.h").read_text()
# The same kernels under gfortran's symbols (every argument by reference), defined over the
# CBLAS ones; adgen sees their prototypes only.
REFERENCE_FORTRAN_BLAS = "\n".join(
    line for line in (Path(__file__).resolve().parents[2] / "testsuite" / "c" / "include" /
                      "fblas_reference.h").read_text().split("\n")
    if not line.startswith("#include"))
FORTRAN_BLAS_PROTOTYPES = [
    "double ddot_(const int *n, const double *dx, const int *incx, const double *dy, "
    "const int *incy);",
    "void daxpy_(const int *n, const double *da, const double *dx, const int *incx, "
    "double *dy, const int *incy);",
    "void dscal_(const int *n, const double *da, double *dx, const int *incx);",
    "void dcopy_(const int *n, const double *dx, const int *incx, double *dy, "
    "const int *incy);",
]


# ------------------------------------------------------------------ rendering

def render_block(stmts, ind, out):
    for s in stmts:
        render_stmt(s, ind, out)


def _for_header(s: Stmt) -> str:
    v = s.var
    init = f"{'int ' if s.decl else ''}{v} = {render_expr(s.start)}"
    test = f"{v} {s.cmp} {render_expr(s.end)}"
    if s.step == 1:
        upd = f"++{v}" if s.pre else f"{v}++"
    elif s.step == -1:
        upd = f"--{v}" if s.pre else f"{v}--"
    elif s.step > 0:
        upd = f"{v} += {s.step}"
    else:
        upd = f"{v} -= {-s.step}"
    return f"for ({init}; {test}; {upd})"


def render_stmt(s: Stmt, ind: int, out: list):
    p = "    " * ind
    k = s.kind
    if s.pragma:
        out.append(f"{p}#pragma adgen {s.pragma}")
    if k == "decl":
        if s.size is not None:
            init = " = {0.0}" if s.zero else ""
            out.append(f"{p}{s.ctype} {s.name}[{s.size}]{init};")
        elif s.init is not None:
            star = "" if s.ctype.endswith("*") else " "
            out.append(f"{p}{s.ctype}{star}{s.name} = {render_expr(s.init)};")
        else:
            out.append(f"{p}{s.ctype} {s.name};")
    elif k == "assign":
        out.append(f"{p}{render_expr(s.lhs)} {s.op} {render_expr(s.rhs)};")
    elif k == "incdec":
        t = render_expr(s.e)
        out.append(f"{p}{s.op}{t};" if s.pre else f"{p}{t}{s.op};")
    elif k == "expr":
        out.append(f"{p}{render_expr(s.e)};")
    elif k == "if":
        out.append(f"{p}if ({render_expr(s.cond)}) {{")
        render_block(s.then, ind + 1, out)
        if s.els:
            out.append(f"{p}}} else {{")
            render_block(s.els, ind + 1, out)
        out.append(f"{p}}}")
    elif k == "for":
        out.append(f"{p}{_for_header(s)} {{")
        render_block(s.body, ind + 1, out)
        out.append(f"{p}}}")
    elif k == "while":
        out.append(f"{p}while ({render_expr(s.cond)}) {{")
        render_block(s.body, ind + 1, out)
        out.append(f"{p}}}")
    elif k == "do":
        out.append(f"{p}do {{")
        render_block(s.body, ind + 1, out)
        out.append(f"{p}}} while ({render_expr(s.cond)});")
    elif k == "switch":
        out.append(f"{p}switch ({render_expr(s.cond)}) {{")
        for c in s.cases:
            labels = [f"case {v}:" for v in c.labels] or ["default:"]
            out += [f"{p}{lab}" for lab in labels[:-1]]
            out.append(f"{p}{labels[-1]}{' {' if c.braced else ''}")
            render_block(c.body, ind + 1, out)
            if c.end == "break":
                out.append(f"{p}    break;")
            if c.braced:
                out.append(f"{p}}}")
            if c.end == "fall" and c is not s.cases[-1]:
                out.append(f"{p}    /* falls through */")   # (gcc's -Wimplicit-fallthrough)
        out.append(f"{p}}}")
    elif k in ("break", "continue"):
        out.append(f"{p}{k};")
    elif k == "goto":
        out.append(f"{p}goto {s.name};")
    elif k == "label":
        out.append(f"{p}{s.name}: ;")
    elif k == "return":
        out.append(f"{p}return {render_expr(s.e)};")
    elif k == "free":
        out.append(f"{p}free({s.name});")
    else:
        raise ValueError(k)


def _param_text(p: Param) -> str:
    if "(*)" in p.ctype:        # a function pointer: the name goes inside
        return p.ctype.replace("(*)", f"(*{p.name})", 1)
    return f"{p.ctype}{'' if p.ctype.endswith('*') else ' '}{p.name}"


def render_func(f: Func, out: list):
    ps = ", ".join(_param_text(p) for p in f.params)
    out.append(f"{f.ret} {f.name}({ps or 'void'})")
    out.append("{")
    render_block(f.body, 1, out)
    out.append("}")


def render(prog: Program) -> str:
    out = []
    if prog.comment:
        out.append(f"/* {prog.comment} */")
    out.append("/* adgen-test")
    out.append(f"head: {prog.head.name}({' '.join(prog.dep)})/({' '.join(prog.indep)})")
    for a in prog.args:
        if prog.handle is not None and a.name == prog.handle.name:
            out += prog.handle.lines()
        else:
            out.append(f"arg {a.name}: {a.spec}")
    out.append(f"tol: {prog.tol}")
    if prog.sizes != "infer":
        out.append(f"sizes: {prog.sizes}")
    out.append(f"seed: {prog.test_seed}")
    out.append("*/")
    out.append("#include <math.h>")
    if prog.uses_malloc:
        out.append("#include <stdlib.h>")
    if prog.uses_blas or prog.uses_fortran_blas:
        out += ["#ifdef __adgen__"] + (["#include <cblas.h>"] if prog.uses_blas else []) + \
            (FORTRAN_BLAS_PROTOTYPES if prog.uses_fortran_blas else []) + ["#else"] + \
            REFERENCE_CBLAS.strip("\n").split("\n") + \
            (REFERENCE_FORTRAN_BLAS.strip("\n").split("\n") if prog.uses_fortran_blas
             else []) + ["#endif"]
    funcs = []
    for f in prog.funcs:
        funcs.append("")
        render_func(f, funcs)
    if any(line.strip() == "#pragma adgen fp_loop" for line in funcs):
        # the adjoint of the fixed point against the derivative of the iterations run: they
        # differ by what the stopping test (a change below 1e-14) leaves
        out.insert(out.index(f"tol: {prog.tol}") + 1, f"atol: {FP_LOOP_ATOL}")
    # a static global the minimizer left unused would be an error for gcc -Werror
    used = set(re.findall(r"\w+", "\n".join(funcs)))
    globals_ = [line for line in prog.structs or []
                if not (m := re.match(r"static \w+ \**(\w+)(\[\d+\])?;$", line)) or
                m.group(1) in used]
    if prog.handle is not None:
        globals_ = prog.handle.typedefs() + globals_
    if globals_:
        out += [""] + globals_
    return "\n".join(out + funcs) + "\n"


# ------------------------------------------------------------------ generator

class Sym:
    """A variable visible to the generator.
    cls: dbl (double scalar), arr (double array / pointer), int.
    kind (dbl, arr): in (read-only), norm (|v| <= CAP), acc (+= only, read squashed)."""

    def __init__(self, name, cls, kind="norm", *, bound=CAP, length=0, lo=0, hi=0,
                 writable=True, const=False, index_ok=True, param=False):
        self.name, self.cls, self.kind = name, cls, kind
        self.bound, self.length, self.lo, self.hi = bound, length, lo, hi
        self.writable, self.const, self.index_ok, self.param = writable, const, index_ok, param
        self.fixed = False  # local fixed-size array
        self.ready = True  # False while the array is being initialised (or after free)
        # malloc'd: gcc -O3 warns "may be used uninitialized" on constant indices into an
        # array initialised by a loop of symbolic length, so only loop indices are used
        self.symlen = False
        self.root = name  # the array a pointer points into: no aliasing between call arguments


@dataclass
class Callee:
    name: str
    m: int  # concrete value of its size parameter
    roles: list  # (role, name) per parameter: m in inp out inout acc scal
    returns: bool
    pure: bool  # no writable array parameter: may be called inside expressions
    called: bool = False
    allocates: bool = False  # mallocs, or calls a helper that does (no joint mode)


NICE = (0.01, 0.02, 0.05, 0.1, 0.125, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 0.8, 1.0,
        1.25, 1.5, 2.0, 2.5, 3.0)


def nice_down(x: float) -> float:
    best = NICE[0]
    for c in NICE:
        if c <= x:
            best = c
    return best


class Gen:
    def __init__(self, seed: int, cfg: Config | None = None):
        self.seed = seed
        self.cfg = cfg or Config()
        self.r = random.Random(seed)
        # directives come from their own stream: a seed's program is the same with them;
        # so do the ways of writing a test (a switch, an assignment in it)
        self.rd = random.Random(seed * 2654435761 + 97)
        # independent loops draw from a stream of their own: the other directives' draws
        # (and so the programs of earlier versions of the generator) stay as they were
        self.ri = random.Random(seed * 2654435761 + 131)
        self.rn = random.Random(seed * 2654435761 + 149)    # dense sums, likewise
        self.rw = random.Random(seed * 2246822519 + 13)
        self.rt = random.Random(seed * 3266489917 + 29)    # cheap temporaries
        self.rc = random.Random(seed * 2654435789 + 31)    # callbacks
        self.rq = random.Random(seed * 1597334677 + 37)    # calls in ternaries
        self.rs = random.Random(seed * 3037000493 + 41)    # locals kept in structs
        self.rg = random.Random(seed * 2147483629 + 43)    # locals kept in static globals
        self.rb = random.Random(seed * 1073741789 + 47)    # buffers swapped through pointers
        self.rh = random.Random(seed * 2147483587 + 53)    # arrays passed in struct handles
        self.callees: list[Callee] = []
        self.uses_malloc = False
        self.uses_blas = False
        self.uses_fortran_blas = False
        self.no_calls = 0  # > 0: inside a condition (or ternary), where no call may go

    # ---------------------------------------------------------- scope helpers
    def syms(self, cls=None):
        for scope in reversed(self.scopes):
            for s in reversed(scope):
                if cls is None or s.cls == cls:
                    yield s

    def declare(self, sym: Sym) -> Sym:
        self.scopes[-1].append(sym)
        self.symtab[sym.name] = sym
        return sym

    def fresh(self, prefix: str) -> str:
        self.counter[prefix] = self.counter.get(prefix, 0) + 1
        return f"{prefix}{self.counter[prefix]}"

    def ref(self, sym: Sym, read=True) -> Expr:
        if sym.cls == "int":
            return Expr("var", val=sym.name, ty="int", lo=sym.lo, hi=sym.hi,
                        bound=max(abs(sym.lo), abs(sym.hi)))
        return Expr("var", val=sym.name, ty="ptr" if sym.cls == "arr" else "double",
                    bound=sym.bound if sym.kind != "acc" else 1e30)

    # ------------------------------------------------------ integer indices
    def int_atoms(self):
        return [s for s in self.syms("int") if s.index_ok and s.lo <= s.hi]

    def dim_syms(self):
        return [s for s in self.syms("int") if s.param]

    def index(self, length: int, symlen: bool = False) -> Expr:
        """An int expression whose static range lies in [0, length-1]
        (symlen: one that is not constant)."""
        r = self.r
        atoms = self.int_atoms()
        loopish = [a for a in atoms if not a.param]
        dims = self.dim_syms()
        for _ in range(40):
            form = r.randrange(10) if loopish else 9
            if symlen and form == 9:
                continue
            if form <= 3:
                e = self.ref(r.choice(loopish))
            elif form == 4:
                e = ibin(r.choice("+-"), self.ref(r.choice(loopish)), inum(r.randint(1, 2)))
            elif form == 5 and dims:
                dim = r.choice(dims)
                e = ibin("-", ibin("-", self.ref(dim), inum(1)), self.ref(r.choice(loopish)))
            elif form == 6 and dims and len(loopish) >= 2:
                a, b = r.sample(loopish, 2)
                e = ibin("+", ibin("*", self.ref(a), self.ref(r.choice(dims))), self.ref(b))
            elif form == 7:
                a = self.ref(r.choice(loopish))
                if r.random() < 0.5:
                    e = ibin("/", a, inum(2))
                else:
                    e = ibin("+", ibin("*", inum(2), a), inum(r.randint(0, 1)))
            elif form == 8:
                a = r.choice(loopish)
                b = self.ref(r.choice(loopish)) if r.random() < 0.5 else inum(r.randint(1, 3))
                m = r.choice(dims) if dims and r.random() < 0.6 else None
                mod = self.ref(m) if m is not None else inum(length)
                if a.lo < 0 or mod.lo < 1:
                    continue
                e = ibin("%", ibin("+", self.ref(a), b), mod)
            else:
                e = inum(r.randint(0, length - 1))
            if 0 <= e.lo and e.hi <= length - 1 and (e.op != "bin" or e.args[0].lo >= 0) \
                    and not (symlen and e.lo == e.hi):
                return e
        if symlen:
            return self.ref(self.fitting_atom(length))
        return inum(r.randint(0, length - 1))

    def fitting_atom(self, length: int):
        for a in self.int_atoms():
            if not a.param and 0 <= a.lo and a.hi <= length - 1 and a.lo < a.hi:
                return a
        return None

    def indexable(self, a: Sym) -> bool:
        return not a.symlen or self.fitting_atom(a.length) is not None

    # ---------------------------------------------------- double expressions
    def squash(self, e: Expr) -> Expr:
        f = self.r.choice(("tanh", "sin", "atan"))
        return call(f, e, bound=1.5708 if f == "atan" else 1.0)

    def fit(self, e: Expr, cap: float) -> Expr:
        """e, scaled or squashed so that |e| <= cap."""
        if e.bound <= cap:
            return e
        if e.bound <= 8 * cap and self.r.random() < 0.5:
            c = nice_down(cap / e.bound)
            return bin_("*", num(c), e, c * e.bound)
        s = self.squash(e)
        if s.bound > cap:
            c = nice_down(cap / s.bound)
            return bin_("*", num(c), s, c * s.bound)
        if cap >= 2 and self.r.random() < 0.5:
            c = nice_down(cap / s.bound)
            return bin_("*", num(c), s, c * s.bound)
        return s

    def readable_dbl(self):
        return list(self.syms("dbl"))

    def readable_arr(self):
        return [s for s in self.syms("arr") if s.length > 0 and s.ready and self.indexable(s)]

    def dleaf(self, active: bool = False) -> Expr:
        """A variable, array element, scaled int, pure call or (unless active) a constant."""
        r = self.r
        for _ in range(30 if active else 10):
            c = r.random()
            if c < 0.3:
                arrs = self.readable_arr()
                if arrs:
                    a = r.choice(arrs)
                    e = Expr("idx", (self.ref(a), self.index(a.length, a.symlen)), bound=a.bound)
                    return self.acc_read(a, e)
            elif c < 0.55:
                ds = self.readable_dbl()
                if ds:
                    s = r.choice(ds)
                    return self.acc_read(s, self.ref(s))
            elif c < 0.65:
                ints = [s for s in self.syms("int") if s.lo >= -100 and s.hi <= 100]
                if ints:
                    s = r.choice(ints)
                    e = self.ref(s)
                    if r.random() < 0.5:
                        e = Expr("cast", (e,), val="double", bound=e.bound)
                    return bin_("*", num(r.choice((0.1, 0.25, 0.5))), e, 0.5 * e.bound)
            elif c < 0.72 and self.pure_callees() and not self.no_calls:
                cl = r.choice(self.pure_callees())
                args = self.call_args(cl)
                if args is not None:
                    cl.called = True
                    return Expr("call", args, val=cl.name, bound=CAP)
            elif not active and c > 0.82:
                break
        return num(r.choice((0.5, 1.5, 0.25, 2.0, -0.5, 0.75, -1.25, 3.0, 0.3, -0.8)))

    def cheap_leaf(self) -> Expr:
        """A variable or an array element (no call, no accumulator), or a constant."""
        r = self.r
        arrs = [a for a in self.readable_arr() if a.kind != "acc"]
        dbls = [d for d in self.readable_dbl() if d.kind != "acc"]
        if arrs and (not dbls or r.random() < 0.6):
            a = r.choice(arrs)
            return Expr("idx", (self.ref(a), self.index(a.length, a.symlen)), bound=a.bound)
        if dbls:
            return self.ref(r.choice(dbls))
        return num(r.choice((0.5, 1.5, -0.75)))

    def acc_read(self, sym: Sym, e: Expr) -> Expr:
        """Accumulators are only read through a bounded function."""
        if sym.kind != "acc":
            return e
        e.bound = 1e30
        f = self.r.choice(("tanh", "sin", "atan", "cos"))
        return call(f, e, bound=1.5708 if f == "atan" else 1.0)

    def dexpr(self, depth: int) -> Expr:
        r = self.r
        if depth <= 0 or r.random() < 0.2:
            return self.dleaf()
        c = r.random()
        if c < 0.2:
            e = r.choice((add, sub))(self.dexpr(depth - 1), self.dexpr(depth - 1))
        elif c < 0.4:
            e = mul(self.dexpr(depth - 1), self.dexpr(depth - 1))
        elif c < 0.5:
            e = self.divide(self.dexpr(depth - 1), depth)
        elif c < 0.54:
            a = self.dexpr(depth - 1)
            e = Expr("neg", (a,), bound=a.bound)
        elif c < 0.85:
            e = self.mathcall(depth)
        elif c < 0.93:
            a, b = self.ternary_branches(lambda: self.dexpr(depth - 1))
            e = Expr("cond", (self.cond(1), a, b), bound=max(a.bound, b.bound))
        else:
            e = self.dleaf()
        if e.bound > SQUASH:
            e = self.squash(e)
        return e

    def divide(self, a: Expr, depth: int) -> Expr:
        """a / d with d kept >= a positive constant."""
        r = self.r
        u = self.dexpr(depth - 1)
        c = r.random()
        ints = [s for s in self.syms("int") if s.lo >= 0 and s.hi <= 100]
        if c < 0.45:
            k = r.choice((1.0, 0.5, 2.0))
            d, dmin = add(num(k), sq(u)), k
        elif c < 0.75:
            d, dmin = add(num(2.0), call(r.choice(("sin", "cos", "tanh")), u, bound=1.0)), 1.0
        elif c < 0.9 and ints:
            s = self.ref(r.choice(ints))
            d, dmin = ibin("+", s, inum(1)), 1.0
        else:
            k = r.choice((2.0, 4.0, 3.0))
            d, dmin = num(k), k
        return bin_("/", a, d, a.bound / dmin)

    def mathcall(self, depth: int) -> Expr:
        r = self.r
        f = r.choice(self.cfg.funcs)
        u = self.dexpr(depth - 1)
        B = u.bound
        if f in ("sin", "cos", "tanh"):
            return call(f, u, bound=1.0)
        if f == "atan":
            return call(f, u, bound=1.5708)
        if f in ("exp", "sinh", "cosh", "expm1"):
            # exp of bounded values only
            if B > 2.0:
                form = r.randrange(3)
                if form == 0:
                    u = call("tanh", u, bound=1.0)
                elif form == 1:
                    u = bin_("*", num(0.5), call("sin", u, bound=1.0), 0.5)
                elif f == "exp":
                    return call("exp", Expr("neg", (sq(u),), bound=1e30), bound=1.0)
                else:
                    u = call("tanh", u, bound=1.0)
            b = math.exp(u.bound)
            return call(f, u, bound=b if f != "cosh" else b)
        if f in ("log", "log10", "log1p"):
            if f == "log1p":
                return call(f, sq(u), bound=math.log1p(B * B))
            if r.random() < 0.7:
                return call(f, add(num(1.0), sq(u)), bound=math.log(1 + B * B) + 1)
            return call(f, add(num(2.0), call("sin", u, bound=1.0)), bound=1.1)
        if f in ("sqrt", "cbrt"):
            k = r.choice((1.0, 0.5, 2.0))
            return call(f, add(num(k), sq(u)), bound=(k + B * B) ** 0.5 + 1)
        if f == "pow":
            if B > 1.5:
                u = call("tanh", u, bound=1.0)
                B = 1.0
            base = add(num(1.0), sq(u))
            if r.random() < 0.25:
                # active exponent: derivative needs log(base), base >= 1
                ex = add(num(0.5), bin_("*", num(0.5), call("tanh", self.dexpr(depth - 1), bound=1.0), 0.5))
                return call("pow", base, ex, bound=1 + B * B)
            p = r.choice((0.5, 1.5, 2.0, -0.5, 0.75, 3.0, 2.5))
            return call("pow", base, num(p), bound=max(1.0, (1 + B * B) ** p))
        if f == "atan2":
            v = self.dexpr(depth - 1)
            k = r.choice((0.5, 1.0, 2.0))
            return call("atan2", u, add(num(k), sq(v)), bound=1.5708)
        if f == "hypot":
            # hypot is not differentiable at (0, 0), and exact zeros do occur
            # (a product with a loop index 0): keep the second argument away from 0
            v = self.dexpr(depth - 1)
            v = add(num(r.choice((0.5, 1.0))), sq(v))
            return call("hypot", u, v, bound=B + v.bound)
        if f == "fabs":
            return call("fabs", u, bound=B)
        if f in ("fmin", "fmax"):
            v = self.dexpr(depth - 1)
            return call(f, u, v, bound=max(B, v.bound))
        if f in ("asin", "acos"):
            return call(f, bin_("*", num(0.9), call("tanh", u, bound=1.0), 0.9), bound=3.1416)
        if f == "tan":
            return call(f, bin_("*", num(0.5), call("tanh", u, bound=1.0), 0.5), bound=0.6)
        raise ValueError(f)

    def cond(self, depth: int = 1) -> Expr:
        self.no_calls += 1
        try:
            return self._cond(depth)
        finally:
            self.no_calls -= 1

    def _cond(self, depth: int = 1) -> Expr:
        """A branch condition: mostly comparisons of active values."""
        r = self.r
        c = r.random()
        ints = [s for s in self.syms("int") if not s.param]
        if c < 0.6 or not ints:
            a = self.dleaf(True) if r.random() < 0.6 else self.dexpr(depth)
            b = self.dleaf() if r.random() < 0.5 else num(r.choice((0.0, 0.1, 0.3, -0.2, 0.5)))
            if a.op == "num" and b.op == "num" or render_expr(a) == render_expr(b):
                a, b = self.dexpr(1), num(0.25)
            e = cmp(r.choice(("<", ">", "<=", ">=")), a, b)
        elif c < 0.85:
            i = r.choice(ints)
            form = r.randrange(3)
            if form == 0 and i.lo >= 0:
                e = cmp(r.choice(("==", "!=")), ibin("%", self.ref(i), inum(2)), inum(r.randint(0, 1)))
            elif form == 1:
                e = cmp(r.choice(("<", ">", "==", ">=")), self.ref(i), inum(r.randint(i.lo, max(i.lo, i.hi))))
            else:
                others = [j for j in ints if j.name != i.name]
                if not others:
                    return self.cond_simple()
                e = cmp(r.choice(("<", ">", "!=", "<=")), self.ref(i), self.ref(r.choice(others)))
        else:
            e = cmp(r.choice(LOGIC), self.cond(0) if depth > 0 else self.cond_simple(),
                    self.cond_simple())
        return e

    def jump_cond(self, loopsym: Sym) -> Expr:
        """Condition of a break/continue: true for some iterations only, most likely."""
        r = self.r
        if r.random() < 0.5 and loopsym.hi > loopsym.lo:
            v = self.ref(loopsym)
            if r.random() < 0.5:
                return cmp("==", ibin("%", v, inum(2)), inum(r.randint(0, 1))) if loopsym.lo >= 0 \
                    else cmp(">", v, inum(loopsym.lo))
            return cmp(r.choice(("==", ">", "<")), v, inum(r.randint(loopsym.lo + 1, loopsym.hi)))
        return cmp(r.choice(("<", ">")), self.dleaf(True), num(r.choice((0.0, 0.1, -0.1))))

    def cond_simple(self) -> Expr:
        return cmp(self.r.choice(("<", ">")), self.dleaf(True), num(self.r.choice((0.0, 0.2, -0.3))))

    # ----------------------------------------------------------- statements
    def writable_dbl(self, kinds=("norm",)):
        return [s for s in self.syms("dbl") if s.writable and s.kind in kinds]

    def writable_arr(self, kinds=("norm",)):
        return [s for s in self.syms("arr")
                if s.writable and s.kind in kinds and s.ready and self.indexable(s)]

    def acc_increment(self, depth: int) -> Expr:
        """A += increment scaled by the number of executions, so accumulators stay O(1)."""
        e = self.fit(self.dexpr(depth), CAP)
        scale = nice_down(2.0 / max(1.0, self.execs * e.bound))
        if scale < 1.0 or self.r.random() < 0.3:
            e = bin_("*", num(scale), e, scale * e.bound)
        return e

    def st_assign_new(self, depth):
        name = self.fresh("s")
        e = self.fit(self.dexpr(2 + self.r.randrange(2)), CAP)
        if self.loops and self.rt.random() < self.cfg.cheap_temps:
            e = self.cheap_of(e)
        self.declare(Sym(name, "dbl"))
        return [Stmt("decl", ctype="double", name=name, init=e, size=None)]

    def cheap_of(self, e):
        """`c * u + d * v` of two of the variables and elements e reads (no accumulator),
        or e when it reads none: a temporary adgen may set again in the backward sweep
        instead of storing it. Drawn from its own stream, so that programs without such
        scalars stay as they were."""
        leaves = [x for x in e.walk() if x.op in ("idx", "var") and x.ty == "double" and
                  0 < x.bound < 1e30]
        if not leaves:
            return e
        terms = []
        for u in self.rt.sample(leaves, min(2, len(leaves))):
            c = min(nice_down(CAP / 2 / u.bound), 1.5)
            terms.append(bin_("*", num(c), copy.deepcopy(u), c * u.bound))
        return add(*terms) if len(terms) == 2 else terms[0]

    def st_assign_scalar(self, depth):
        r = self.r
        targets = self.writable_dbl(("norm", "acc"))
        if not targets:
            return None
        t = r.choice(targets)
        if t.kind == "acc":
            op = r.choice(("+=", "-=", "+=", "++"))
            if op == "++":
                return [Stmt("incdec", e=self.ref(t, read=False), op="++", pre=r.random() < 0.3)]
            return [Stmt("assign", lhs=self.ref(t, read=False), op=op, rhs=self.acc_increment(2))]
        c = r.random()
        lhs = self.ref(t, read=False)
        if c < 0.5:
            rhs = self.fit(self.dexpr(2 + r.randrange(2)), CAP)
            return [Stmt("assign", lhs=lhs, op="=", rhs=rhs)]
        if c < 0.7:
            # *= by a factor of magnitude <= 1
            return [Stmt("assign", lhs=lhs, op="*=", rhs=self.fit(self.dexpr(2), 1.0))]
        if c < 0.8:
            d = self.divide(num(1.0), 2).args[1]
            if d.ty == "int" or (d.op == "num"):
                d = add(num(1.0), sq(self.dexpr(1)))
            elif d.op == "bin" and d.args[0].op == "num" and float(d.args[0].val) < 1.0:
                # (0.5 + u * u): a divisor below 1 would let t grow, by 2^k in a loop
                d.args[0] = num(1.0)
            return [Stmt("assign", lhs=lhs, op="/=", rhs=d)]
        a, b = self.ternary_branches(lambda: self.fit(self.dexpr(2), CAP))
        return [Stmt("assign", lhs=lhs, op="=", rhs=Expr("cond", (self.cond(1), a, b), bound=CAP))]

    def ternary_branches(self, branch):
        """The two branches of a ternary; now and then they may call helpers (a call runs
        only in the branch taken)."""
        calls = self.rq.random() < self.cfg.ternary_calls
        self.no_calls += not calls
        try:
            return branch(), branch()
        finally:
            self.no_calls -= not calls

    def st_array_write(self, depth, target: Sym | None = None):
        r = self.r
        if target is None:
            targets = self.writable_arr(("norm", "acc"))
            if not targets:
                return None
            target = r.choice(targets)
        lhs = Expr("idx", (self.ref(target), self.index(target.length, target.symlen)))
        if target.kind == "acc":
            op = r.choice(("+=", "-=", "+="))
            return [Stmt("assign", lhs=lhs, op=op, rhs=self.acc_increment(2))]
        c = r.random()
        if c < 0.6:
            return [Stmt("assign", lhs=lhs, op="=", rhs=self.fit(self.dexpr(2 + r.randrange(2)), CAP))]
        if c < 0.8:
            return [Stmt("assign", lhs=lhs, op="*=", rhs=self.fit(self.dexpr(2), 1.0))]
        # relaxation y[i] = 0.5*y[i] + 0.5*e stays within CAP
        old = Expr("idx", (self.ref(target), copy.deepcopy(lhs.args[1])), bound=CAP)
        rhs = add(bin_("*", num(0.5), old, 0.5 * CAP),
                  bin_("*", num(0.5), self.fit(self.dexpr(2), CAP), 0.5 * CAP))
        return [Stmt("assign", lhs=lhs, op="=", rhs=rhs)]

    def dim_choice(self, min_value=1):
        """(expr, value) for a loop bound: a size parameter or a literal."""
        r = self.r
        dims = [d for d in self.dim_syms() if d.lo >= min_value]
        if dims and r.random() < 0.85:
            d = r.choice(dims)
            return self.ref(d), d.lo
        v = r.randint(max(min_value, 2), 5)
        return inum(v), v

    def st_for(self, depth):
        r = self.r
        var = LOOP_VARS[depth]
        outer = [s for s in self.syms("int") if not s.param and s.index_ok and s.name in LOOP_VARS]
        end, D = self.dim_choice(2)
        form = r.randrange(9)
        step, cmp_op, pre = 1, "<", r.random() < 0.2
        if form <= 2:
            start, lo, hi = inum(0), 0, D - 1
        elif form == 3:
            s0 = r.randint(1, D - 1)
            start, lo, hi = inum(s0), s0, D - 1
        elif form == 4:
            start, lo, hi, cmp_op = inum(0), 0, D - 1, "<="
            end = ibin("-", end, inum(1))
        elif form == 5:
            s0 = r.randint(0, 1)
            step = 2
            start, lo, hi = inum(s0), s0, D - 1
        elif form == 6:
            start, lo, hi, cmp_op, step = ibin("-", copy.deepcopy(end), inum(1)), 0, D - 1, ">=", -1
            end = inum(0)
        elif form == 7:
            step = r.choice((-1, -2))
            s1 = r.randint(0, min(1, D - 1))
            start, lo, hi, cmp_op = ibin("-", copy.deepcopy(end), inum(1)), s1, D - 1, ">="
            end = inum(s1)
        else:
            if outer:
                o = r.choice(outer)
                if r.random() < 0.5 and o.hi >= 1:
                    # triangular: j < i
                    start, lo, hi, end = inum(0), 0, o.hi - 1, self.ref(o)
                elif o.lo >= 0 and o.hi <= D - 1:
                    start, lo, hi = self.ref(o), o.lo, D - 1
                else:
                    start, lo, hi = inum(0), 0, D - 1
            else:
                start, lo, hi = inum(0), 0, D - 1
        trips = max(1, (hi - lo) // abs(step) + 1)
        loopsym = Sym(var, "int", lo=lo, hi=hi)
        if not self.inline_decl:
            self.top_ints.add(var)
        self.push(loopsym)
        self.loops.append(("for", trips))
        self.execs *= trips
        # the condition of a break/continue is drawn before the body: the body's
        # locals may be declared after the position where the jump lands
        jump_cond = self.jump_cond(loopsym) if r.random() < 0.2 else None
        counted = None
        if self.pending_counter is not None:
            cnt, self.pending_counter = self.pending_counter, None
            inc = Stmt("incdec", e=self.ref(cnt, read=False), op=r.choice(("++", "++", "--")),
                       pre=r.random() < 0.3)
            counted = Stmt("if", cond=self.cond(0), then=[inc], els=None)
        accumulate = None
        if self.pending_acc is not None:
            acc, self.pending_acc = self.pending_acc, None
            accumulate = Stmt("assign", lhs=self.ref(acc, read=False), op=r.choice(("+=", "+=", "-=")),
                              rhs=self.acc_increment(2))
        body = self.block(depth + 1, r.randint(1, 3))
        if counted is not None:
            body.insert(0, counted)
        if accumulate is not None:
            body.insert(r.randint(0, len(body)), accumulate)
        if jump_cond is not None:
            jump = Stmt(r.choice(("break", "continue")))
            body.insert(r.randrange(len(body) + 1), Stmt("if", cond=jump_cond, then=[jump], els=None))
        self.execs //= trips
        self.loops.pop()
        body += self.pop()
        loop = Stmt("for", var=var, decl=self.inline_decl, start=start, cmp=cmp_op, end=end,
                    step=step, pre=pre, body=body)
        if self.rd.random() < self.cfg.directives and not leaves_loop(body) and \
                not names_used(body) & set(self.frees):
            # few snapshots, so that the steps are recomputed from them
            loop.pragma = f"binomial_ckp({trips}, {self.rd.choice((1, 2, 3, 5))}, 0)"
        return [loop]

    def st_while(self, depth):
        r = self.r
        end, D = self.dim_choice(2)
        arrs = [a for a in self.readable_arr() if a.length >= D and a.kind != "acc"]
        k = self.fresh("k")
        s0 = r.randint(0, 1)
        data_in_cond = arrs and r.random() < 0.7
        ksym = Sym(k, "int", lo=s0, hi=D - 1)
        self.push(ksym)
        if data_in_cond:
            a = r.choice(arrs)
            elem = Expr("idx", (self.ref(a), self.ref(ksym)), bound=a.bound)
            dcond = cmp(r.choice((">", "<")), elem, num(r.choice((0.1, -0.1, 0.0, 0.3, -0.3))))
        else:
            dcond = self.cond(0)
        guard = cmp("<", self.ref(ksym), end)
        step = r.choice((1, 1, 1, 2))
        self.loops.append(("while", D))
        self.execs *= D
        if data_in_cond:
            cond = cmp("&&", guard, dcond)
            body = self.block(depth + 1, r.randint(1, 3))
        else:
            cond = guard
            body = [Stmt("if", cond=dcond, then=[Stmt("break")], els=None)]
            body += self.block(depth + 1, r.randint(1, 3))
        self.execs //= D
        self.loops.pop()
        inc = Stmt("incdec", e=self.ref(ksym, read=False), op="++", pre=r.random() < 0.3) if step == 1 \
            else Stmt("assign", lhs=self.ref(ksym, read=False), op="+=", rhs=inum(step))
        body += self.pop()
        body.append(pin(inc, k))
        decl = pin(Stmt("decl", ctype="int", name=k, init=inum(s0), size=None), k)
        # after the loop k is in [s0, D + step - 1]; it may be read as a count
        after = Sym(k, "int", lo=s0, hi=D + step - 1, index_ok=False)
        self.declare(after)
        # a do-while runs its body once with k = s0 <= D - 1, then as the while would
        kind = "do" if r.random() < 0.25 else "while"
        return [decl, Stmt(kind, cond=cond, body=body)]

    def st_if(self, depth):
        r = self.r
        cond = self.cond(1)
        self.push()
        then = self.block(depth + 1, r.randint(1, 2))
        then += self.pop()
        els = None
        if r.random() < 0.5:
            self.push()
            els = self.block(depth + 1, r.randint(1, 2))
            els += self.pop()
        decl = self.assign_in_test(cond, then) if self.rw.random() < self.cfg.assign_in_test \
            else []
        if self.rw.random() < self.cfg.switches:
            return decl + [self.as_switch(cond, then, els)]
        return decl + [Stmt("if", cond=cond, then=then, els=els)]

    def assign_in_test(self, cond, then):
        """An operand of a comparison in the test assigned to a new variable as it is
        evaluated, `if ((w1 = e) > c)` (also in the right operand of && or ||, evaluated
        only when needed), read in the then branch. Drawn from its own stream; returns the
        variable's declaration (none when the test compares no double)."""
        cmps = [c for c in _comparisons(cond) if c.args[0].ty == "double"]
        if not cmps:
            return []
        c = self.rw.choice(cmps)
        w = self.fresh("w")
        ref = Expr("var", val=w, bound=c.args[0].bound)
        c.args[0] = Expr("set", (ref, c.args[0]), bound=ref.bound)
        then.append(Stmt("assign", lhs=self.sink_ref(), op="+=",
                         rhs=mul(num(0.1), call("tanh", copy.deepcopy(ref), bound=1.0))))
        return [Stmt("decl", ctype="double", name=w, init=num(0.0), size=None)]

    def as_switch(self, cond, then, els):
        """`if (cond) then else els` written as a switch on cond (0 or 1), now and then
        plus twice a second condition (so that groups have several labels): groups ending
        in break or falling through into the next (which changes what the program
        computes, as any program may), a default group, breaks and continues inside the
        groups. Drawn from a stream of their own, like the directives."""
        saved, self.r = self.r, self.rw
        try:
            rd = self.rw
            sel, ones = cond, [1]
            if rd.random() < 0.4:
                sel = ibin("+", cond, ibin("*", inum(2), self.cond_simple()))
                ones = [1, 3]
            zeros = [v - 1 for v in ones]
            cases = [Case(ones, then)]
            if els is not None or rd.random() < 0.3:
                cases.append(Case([] if rd.random() < 0.5 else zeros, els or []))
            rd.shuffle(cases)
            in_for = bool(self.loops) and self.loops[-1][0] == "for"
            for c in cases:
                c.end = "fall" if rd.random() < 0.4 else "break"
                c.braced = any(x.kind == "decl" for x in c.body) or rd.random() < 0.2
                jump = rd.random()
                if jump < 0.25 or jump < 0.35 and in_for:
                    kind = "break" if jump < 0.25 else "continue"
                    stop = Stmt("if", cond=self.cond_simple(), then=[Stmt(kind)], els=None)
                    c.body.insert(rd.randint(0, len(c.body)), stop)
            return Stmt("switch", cond=sel, cases=cases)
        finally:
            self.r = saved

    def st_counter(self, depth):
        """int counter incremented under an active condition (read later as a double)."""
        name = self.fresh("cnt")
        sym = Sym(name, "int", lo=-64, hi=64, index_ok=False)
        decl = Stmt("decl", ctype="int", name=name, init=inum(0), size=None)
        self.declare(sym)
        self.pending_counter = sym  # st_for puts `if (cond) cnt++;` in its body
        loop = self.st_for(depth)
        self.pending_counter = None
        return [decl] + loop

    def st_local_array(self, depth):
        r = self.r
        name = self.fresh("t")
        dims = self.dim_syms()
        size = r.choice([d.lo for d in dims] + [4, 6]) if dims else r.choice((3, 4, 6))
        zero = r.random() < 0.3
        decl = Stmt("decl", ctype="double", name=name, init=None, size=size, zero=zero)
        sym = Sym(name, "arr", length=size)
        sym.fixed = True
        out = [decl]
        if not zero:
            # inside a loop, often a cheap refill: scratch adgen may recompute, not store
            cheap = bool(self.loops) and r.random() < 0.6
            out.append(pin(self.fill_loop(sym, depth, size, cheap=cheap), name))
        self.declare(sym)
        return out

    def fill_loop(self, sym: Sym, depth: int, length: int, lenexpr: Expr | None = None,
                  value: Expr | None = None, source: Sym | None = None,
                  cheap: bool = False) -> Stmt:
        """for (v = 0; v < len; v++) a[v] = expr;  initialises a whole array."""
        var = LOOP_VARS[min(depth, len(LOOP_VARS) - 1)]
        if not self.inline_decl:
            self.top_ints.add(var)
        vsym = Sym(var, "int", lo=0, hi=length - 1)
        self.push(vsym)
        sym.ready = False  # the value must not read the array it initialises
        if value is None and cheap:
            # c * u + d * v of variables and elements: three operations per element
            terms = []
            for _ in range(2):
                u = self.cheap_leaf()
                c = min(nice_down(CAP / 2 / u.bound), 1.5) if u.bound > 0 else 1.0
                terms.append(bin_("*", num(c), u, c * u.bound))
            value = add(*terms)
        elif value is None:
            value = self.fit(self.dexpr(2), CAP) if self.r.random() < 0.8 else num(0.0)
        if source is not None:
            # a term of the independent input, so that the outputs depend on it
            elem = Expr("idx", (self.ref(source), self.index(source.length)), bound=source.bound)
            c = self.r.choice((0.1, 0.25, 0.5))
            value = self.fit(add(value, bin_("*", num(c), elem, c * elem.bound)), CAP)
        sym.ready = True
        lhs = Expr("idx", (self.ref(sym, read=False), self.ref(vsym)))
        self.pop()
        if lenexpr is None:
            lenexpr = inum(length)
        return Stmt("for", var=var, decl=self.inline_decl, start=inum(0), cmp="<", end=lenexpr,
                    step=1, pre=False, body=[Stmt("assign", lhs=lhs, op="=", rhs=value)])

    def st_malloc(self, depth):
        dims = self.dim_syms()
        if not dims or depth != 0 or self.no_malloc:
            return None
        r = self.r
        name = self.fresh("buf")
        if len(dims) >= 2 and r.random() < 0.4:
            a, b = r.sample(dims, 2)
            lenexpr = ibin("*", self.ref(a), self.ref(b))
        else:
            lenexpr = self.ref(r.choice(dims))
        length = lenexpr.lo
        size = Expr("var", val="sizeof(double)", ty="int")
        arg = Expr("bin", (lenexpr, size), val="*", ty="int") if r.random() < 0.6 \
            else Expr("bin", (size, lenexpr), val="*", ty="int")
        m = Expr("call", (arg,), val="malloc", ty="ptr")
        if r.random() < 0.4:
            m = Expr("cast", (m,), val="double *", ty="ptr")
        self.uses_malloc = True
        sym = Sym(name, "arr", length=length)
        kind = r.random()
        if kind < 0.3:
            sym.kind = "acc"
        decl = Stmt("decl", ctype="double *", name=name, init=m, size=None)
        fill = pin(self.fill_loop(sym, depth, length, copy.deepcopy(lenexpr),
                                  num(0.0) if sym.kind == "acc" else None), name)
        sym.symlen = True
        self.declare(sym)
        self.frees.append(name)
        return [decl, fill]

    def st_alias(self, depth):
        """double *p = a + off;  then write (or read) through p."""
        r = self.r
        cands = [a for a in self.syms("arr") if a.length >= 2 and a.ready]
        if not cands:
            return None
        a = r.choice(cands)
        off = self.index(a.length - 1)  # leaves at least 2 elements
        plen = a.length - off.hi
        base = self.ref(a)
        init = bin_("+", base, off, ty="ptr") if r.random() < 0.5 else \
            Expr("addr", (Expr("idx", (base, off)),), ty="ptr")
        name = self.fresh("p")
        ro = not a.writable or r.random() < 0.2
        sym = Sym(name, "arr", a.kind, bound=a.bound, length=plen, writable=a.writable and not ro)
        sym.root, sym.symlen = a.root, a.symlen
        ctype = "const double *" if (a.const or ro) else "double *"
        sym.const = ctype.startswith("const")
        self.declare(sym)
        out = [Stmt("decl", ctype=ctype, name=name, init=init, size=None)]
        if sym.writable and self.indexable(sym):
            w = self.st_array_write(depth, target=sym)
            if w:
                out += w
        return out

    def pure_callees(self):
        return [c for c in self.callees if c.pure and c.returns and c.name != self.fname]

    def call_args(self, c: Callee):
        """Argument expressions for callee c, or None if the scope cannot supply them.
        An array written by the callee shares its storage with no other argument."""
        r = self.r
        args, read_roots, written_roots = [], set(), set()
        for role, pname in c.roles:
            if role == "m":
                dims = [d for d in self.dim_syms() if d.lo == c.m]
                args.append(self.ref(r.choice(dims)) if dims else inum(c.m))
                continue
            if role == "scal":
                args.append(self.fit(self.dexpr(2), CAP))
                continue
            if role in ("inp", "inpnc"):
                cands = [a for a in self.readable_arr()
                         if a.kind != "acc" and a.root not in written_roots
                         and (role == "inp" or not a.const)]
            else:
                kinds = ("acc",) if role == "acc" else ("norm",)
                cands = [a for a in self.writable_arr(kinds)
                         if a.root not in written_roots and a.root not in read_roots]
            cands = [a for a in cands if a.length >= c.m]
            if not cands:
                return None
            a = r.choice(cands)
            (read_roots if role in ("inp", "inpnc") else written_roots).add(a.root)
            base = self.ref(a)
            whole = a.length == c.m or r.random() < 0.25
            if a.symlen and self.fitting_atom(a.length - c.m + 1) is None:
                whole = True
            if whole:
                args.append(base)
            else:
                off = self.index(a.length - c.m + 1, a.symlen)
                if r.random() < 0.5:
                    args.append(bin_("+", base, off, ty="ptr"))
                else:
                    args.append(Expr("addr", (Expr("idx", (base, off)),), ty="ptr"))
        return args

    def st_call(self, depth):
        r = self.r
        cands = [c for c in self.callees if c.name != self.fname]
        if not cands:
            return None
        uncalled = [c for c in cands if not c.called]
        c = r.choice(uncalled) if uncalled and r.random() < 0.7 else r.choice(cands)
        args = self.call_args(c)
        if args is None:
            return None
        c.called = True
        e = Expr("call", args, val=c.name, bound=CAP)
        stmt = self._call_stmt(c, e)
        if self.rd.random() < self.cfg.call_modes:
            stmt.pragma = "checkpoint" if self.rd.random() < 0.5 and not c.allocates \
                else "nocheckpoint"
        return [stmt]

    def _call_stmt(self, c: Callee, e: Expr) -> Stmt:
        """The statement of call e of c: its result, if any, goes to a scalar, never to an
        array passed to the call."""
        r = self.r
        if not c.returns:
            return Stmt("expr", e=e)
        targets = self.writable_dbl(("norm", "acc"))
        x = r.random()
        if x < 0.3:
            name = self.fresh("s")
            self.declare(Sym(name, "dbl"))
            return Stmt("decl", ctype="double", name=name, init=e, size=None)
        if x < 0.7 and targets:
            t = r.choice(targets)
            if t.kind == "acc":
                scale = nice_down(2.0 / max(1.0, self.execs * CAP))
                return Stmt("assign", lhs=self.ref(t, read=False), op="+=",
                            rhs=bin_("*", num(scale), e, scale * CAP))
            return Stmt("assign", lhs=self.ref(t, read=False), op="=", rhs=e)
        return Stmt("expr", e=e)

    def blas_operand(self, a: Sym, n: int, inc: int) -> Expr:
        """Array a, or a pointer into it, holding n elements inc apart."""
        room = a.length - 1 - (n - 1) * inc
        off = self.r.randint(0, room) if room > 0 and self.r.random() < 0.4 else 0
        return bin_("+", self.ref(a), inum(off), ty="ptr") if off else self.ref(a)

    def st_blas(self, depth):
        """A call of a BLAS level-1 kernel, which adgen differentiates by its built-in
        rules: y = c y (dscal), y = x (dcopy), y = y/2 + c x (dscal, daxpy) or a scalar
        from a dot product; n literal, increments 1 or 2, arrays reached at an offset.
        The CBLAS kernel, or the Fortran one called from C (ddot_, the integers and the
        scale passed by address, through locals declared just before)."""
        r = self.r
        if self.no_calls:
            return None
        if self.rw.random() < self.cfg.blas_products:
            product = self.blas_product()
            if product is not None:
                return product
        what = r.choice(("dscal", "dcopy", "daxpy", "ddot", "ddot"))
        ys = self.writable_arr() if what != "ddot" else \
            [a for a in self.readable_arr() if a.kind != "acc"]
        if not ys:
            return None
        y = r.choice(ys)
        xs = [a for a in self.readable_arr() if a.kind != "acc" and
              (what == "ddot" or a.root != y.root)]
        if what != "dscal" and not xs:
            return None
        x = r.choice(xs) if what != "dscal" else y
        incx, incy = r.choice((1, 1, 2)), r.choice((1, 1, 2))
        most = min((x.length - 1) // incx, (y.length - 1) // incy) + 1
        n = r.randint(1, min(most, 6))
        xa, ya = self.blas_operand(x, n, incx), self.blas_operand(y, n, incy)
        fortran = r.random() < 0.4
        pre = []    # the locals a Fortran kernel's by-reference arguments point to

        def by_ref(ctype, prefix, value):
            name = self.fresh(prefix)
            pre.append(Stmt("decl", ctype=ctype, name=name, init=value, size=None))
            return Expr("addr", (Expr("var", val=name, ty=ctype),), ty="ptr")

        def integer(v):
            return by_ref("int", "nb", inum(v)) if fortran else inum(v)

        def scalar(e):
            return by_ref("double", "al", e) if fortran else e

        def kernel(name, *args):
            return Expr("call", args, val=name + "_" if fortran else "cblas_" + name,
                        bound=CAP)
        if fortran:
            self.uses_fortran_blas = True
        else:
            self.uses_blas = True
        if what == "dscal":
            e = kernel("dscal", integer(n), scalar(self.fit(self.dexpr(2), 1.0)), ya,
                       integer(incy))
            return pre + [Stmt("expr", e=e)]
        if what == "dcopy":
            e = kernel("dcopy", integer(n), xa, integer(incx), ya, integer(incy))
            return pre + [Stmt("expr", e=e)]
        if what == "daxpy":
            c = self.fit(self.dexpr(2), nice_down(0.5 * CAP / max(x.bound, 1.0)))
            half = kernel("dscal", integer(n), scalar(num(0.5)), ya, integer(incy))
            axpy = kernel("daxpy", integer(n), scalar(c), xa, integer(incx),
                          copy.deepcopy(ya), integer(incy))
            return pre + [Stmt("expr", e=half), Stmt("expr", e=axpy)]
        dot = kernel("ddot", integer(n), xa, integer(incx), ya, integer(incy))
        dot.bound = n * x.bound * y.bound
        name = self.fresh("s")
        self.declare(Sym(name, "dbl"))
        return pre + [Stmt("decl", ctype="double", name=name, init=self.fit(dot, CAP),
                           size=None)]

    def blas_product(self):
        """y = alpha op(A) x + beta y (cblas_dgemv) or C = alpha op(A) op(B) + beta C
        (cblas_dgemm, the matrices as arrays of the program): either storage order,
        transposed or not, small literal sizes, leading dimensions with a spare row or
        column now and then, beta 0 or 0.5, alpha keeping the result below CAP; or None.
        Drawn from the second stream: the seed's other statements stay as they are."""
        rw = self.rw
        gemm = rw.random() < 0.5
        order = rw.choice(("CblasRowMajor", "CblasColMajor"))
        trans = ("CblasNoTrans", "CblasTrans")
        ta, tb = rw.choice(trans), rw.choice(trans)
        M, N, K = rw.randint(1, 3), rw.randint(1, 3), rw.randint(1, 3)

        def stored(rows, cols, trans, spare):
            """(leading dimension, length) of a rows x cols op(matrix) stored as given"""
            r_, c_ = (rows, cols) if trans == "CblasNoTrans" else (cols, rows)
            inner, outer = (c_, r_) if order == "CblasRowMajor" else (r_, c_)
            ld = inner + spare
            return ld, (outer - 1) * ld + inner

        if gemm:
            lda, la = stored(M, K, ta, rw.choice((0, 0, 1)))
            ldb, lb = stored(K, N, tb, rw.choice((0, 0, 1)))
            ldc, lc = stored(M, N, "CblasNoTrans", rw.choice((0, 0, 1)))
            inner = K
        else:   # A is M x N as stored; x and y run over op(A)'s columns and rows
            lda, la = stored(M, N, "CblasNoTrans", rw.choice((0, 0, 1)))
            incx, incy = rw.choice((1, 1, 2)), rw.choice((1, 1, 2))
            cols, rows = (N, M) if ta == "CblasNoTrans" else (M, N)
            lb, lc = 1 + (cols - 1) * incx, 1 + (rows - 1) * incy
            inner = cols
        outs = [a for a in self.writable_arr() if a.length >= lc]
        if not outs:
            return None
        y = rw.choice(outs)
        ins = [a for a in self.readable_arr() if a.kind != "acc" and a.root != y.root]
        mats, vecs = [a for a in ins if a.length >= la], [a for a in ins if a.length >= lb]
        if not mats or not vecs:
            return None
        A, B = rw.choice(mats), rw.choice(vecs)
        alpha = nice_down(0.5 * CAP / (inner * max(A.bound, 1.0) * max(B.bound, 1.0)))
        beta = rw.choice((0.0, 0.5))
        enum = lambda name: Expr("var", val=name, ty="int")  # noqa: E731
        if gemm:
            args = (enum(order), enum(ta), enum(tb), inum(M), inum(N), inum(K), num(alpha),
                    self.ref(A), inum(lda), self.ref(B), inum(ldb), num(beta), self.ref(y),
                    inum(ldc))
        else:
            args = (enum(order), enum(ta), inum(M), inum(N), num(alpha), self.ref(A),
                    inum(lda), self.ref(B), inum(incx), num(beta), self.ref(y), inum(incy))
        self.uses_blas = True
        return [Stmt("expr", e=Expr("call", args, val="cblas_dgemm" if gemm else "cblas_dgemv",
                                    bound=CAP))]

    def st_fp_loop(self, depth):
        """while (chg > 1e-14 && it < 300) { z[q] = 0.25 tanh(z[q + 1]) tanh(g) + h; ... }
        under `#pragma adgen fp_loop`, g and h reading nothing the loop writes: the map
        contracts (by 1/4), so the loop reaches its fixed point from any start. Drawn from
        the directives' stream and declaring nothing the rest of the program sees, so the
        program around it is the seed's program without it."""
        targets = [a for a in self.writable_arr() if a.length >= 2 and not a.symlen]
        if not targets or depth >= self.cfg.max_depth:
            return None
        return self.on_directive_stream(lambda: self._fp_loop(self.r.choice(targets), depth))

    def on_directive_stream(self, make, stream=None):
        """make(), drawing from the directives' stream (or the stream given), the helpers
        it calls left as they were (a directive's statements must not change the rest of
        the program)."""
        saved, self.r = self.r, stream or self.rd
        called = [c.called for c in self.callees]
        try:
            return make()
        finally:
            self.r = saved
            for c, was in zip(self.callees, called):
                c.called = was

    def _fp_loop(self, z: Sym, depth: int) -> list:
        m = z.length
        hidden = [a for a in self.syms("arr") if a.root == z.root and a.ready]
        for a in hidden:
            a.ready = False     # g and h must not read the state
        try:
            g = self.squash(self.dexpr(2))
            h = self.fit(self.dexpr(2), CAP - 0.5)
        finally:
            for a in hidden:
                a.ready = True
        chg, it, new = self.fresh("fpchg"), self.fresh("fpit"), self.fresh("fpz")
        var = LOOP_VARS[depth]
        if not self.inline_decl:
            self.top_ints.add(var)
        q = Expr("var", val=var, ty="int", lo=0, hi=m - 1, bound=m - 1)
        chg_ref = Expr("var", val=chg, bound=CAP)
        new_ref = Expr("var", val=new, bound=CAP)
        old = Expr("idx", (self.ref(z), q), bound=CAP)
        nxt = Expr("idx", (self.ref(z), ibin("%", ibin("+", q, inum(1)), inum(m))), bound=CAP)
        value = add(mul(mul(num(0.25), call("tanh", nxt, bound=1.0)), g), h)
        sweep = Stmt("for", var=var, decl=self.inline_decl, start=inum(0), cmp="<", end=inum(m),
                     step=1, pre=False, body=[
                         Stmt("decl", ctype="double", name=new, init=value, size=None),
                         Stmt("assign", lhs=chg_ref, op="=", rhs=call(
                             "fmax", chg_ref, call("fabs", sub(new_ref, old), bound=2 * CAP),
                             bound=2 * CAP)),
                         Stmt("assign", lhs=copy.deepcopy(old), op="=", rhs=new_ref)])
        it_ref = Expr("var", val=it, ty="int", lo=0, hi=300)
        cond = cmp("&&", cmp(">", chg_ref, num(1e-14)), cmp("<", it_ref, inum(300)))
        loop = Stmt("while", cond=cond, body=[
            pin(Stmt("assign", lhs=chg_ref, op="=", rhs=num(0.0)), chg),
            pin(sweep, chg),
            pin(Stmt("incdec", e=it_ref, op="++", pre=False), it)])
        loop.pragma = "fp_loop"
        return [pin(Stmt("decl", ctype="double", name=chg, init=num(1.0), size=None), chg),
                pin(Stmt("decl", ctype="int", name=it, init=inum(0), size=None), it), loop]

    def st_independent_loop(self, depth):
        """double iiacc = 0; #pragma adgen independent for (i = 0; i < m; i++) { double
        iit = f(a[i], ...); double iiw[2]; iiw[0] = ...; iiw[1] = ...; iiacc += g(iit, iiw);
        } w = fit(w + c * iiacc): iterations that fill scratch of their own (a scalar, a
        local array) from what the program has computed and add into one sum, which the
        program then reads. Drawn from a stream of its own and declaring nothing the rest
        of the program sees, so the program around it is the seed's program without it."""
        arrs = [a for a in self.readable_arr() if a.length >= 2 and not a.symlen]
        if not arrs or not self.writable_dbl() or depth >= self.cfg.max_depth:
            return None
        return self.on_directive_stream(
            lambda: self._independent_loop(self.r.choice(arrs), depth), self.ri)

    def _independent_loop(self, a: Sym, depth: int) -> list:
        m = a.length
        target = self.r.choice(self.writable_dbl())
        acc, t, w = self.fresh("iiacc"), self.fresh("iit"), self.fresh("iiw")
        var = LOOP_VARS[depth]
        if not self.inline_decl:
            self.top_ints.add(var)
        q = Expr("var", val=var, ty="int", lo=0, hi=m - 1, bound=m - 1)
        elem = Expr("idx", (self.ref(a), q), bound=a.bound)
        acc_ref = Expr("var", val=acc, bound=CAP)
        t_ref = Expr("var", val=t, bound=CAP)
        w_at = [Expr("idx", (Expr("var", val=w, bound=CAP), inum(k)), bound=CAP)
                for k in range(2)]
        t_val = self.fit(add(mul(self.squash(elem), self.fit(self.dexpr(2), 2.0)),
                             self.dexpr(1)), CAP)
        body = [Stmt("decl", ctype="double", name=t, init=t_val, size=None),
                Stmt("decl", ctype="double", name=w, init=None, size=2, zero=False),
                Stmt("assign", lhs=copy.deepcopy(w_at[0]), op="=",
                     rhs=self.fit(mul(t_ref, self.squash(self.dexpr(1))), CAP)),
                Stmt("assign", lhs=copy.deepcopy(w_at[1]), op="=",
                     rhs=self.fit(add(sq(elem), copy.deepcopy(w_at[0])), CAP)),
                Stmt("assign", lhs=copy.deepcopy(acc_ref), op="+=",
                     rhs=self.squash(add(mul(copy.deepcopy(t_ref), copy.deepcopy(w_at[1])),
                                         copy.deepcopy(w_at[0]))))]
        loop = Stmt("for", var=var, decl=self.inline_decl, start=inum(0), cmp="<", end=inum(m),
                    step=1, pre=False, body=[pin(st, acc) for st in body])
        loop.pragma = "independent"
        lhs = self.ref(target, read=False)
        scaled = bin_("*", num(nice_down(1.0 / m)), copy.deepcopy(acc_ref), 1.0)
        update = Stmt("assign", lhs=lhs, op="=",
                      rhs=self.fit(add(self.ref(target), scaled), CAP))
        return [pin(Stmt("decl", ctype="double", name=acc, init=num(0.0), size=None), acc),
                pin(loop, acc), pin(update, acc)]

    def st_dense_sum(self, depth):
        """for (i = 0; i < m; i++) for (j = i + 1; j < m; j++) a[i] = 0.5 * a[i] + 0.5 * t;
        with t = f(a[j], ...), or j below i, or j over the whole array (i included): each
        inner iteration updates one element in place from other elements of its array, the
        shape of dense factorisations, whose adjoint pushes that element once per inner
        loop when no backward iteration reads it (the partial of a[i] is 0.5; with j = i
        among the iterations it reads it). Drawn from a stream of its own."""
        arrs = [a for a in self.writable_arr() if a.length >= 3 and not a.symlen]
        if not arrs or depth + 1 >= len(LOOP_VARS) or depth + 1 >= self.cfg.max_depth:
            return None
        return self.on_directive_stream(
            lambda: self._dense_sum(self.r.choice(arrs), depth), self.rn)

    def _dense_sum(self, a: Sym, depth: int) -> list:
        m = a.length
        vi, vj = LOOP_VARS[depth], LOOP_VARS[depth + 1]
        if not self.inline_decl:
            self.top_ints.update((vi, vj))
        i_ref = Expr("var", val=vi, ty="int", lo=0, hi=m - 1, bound=m - 1)
        form = self.r.randrange(3)
        if form == 0:       # above i
            start, end, lo, hi = ibin("+", copy.deepcopy(i_ref), inum(1)), inum(m), 1, m - 1
        elif form == 1:     # below i
            start, end, lo, hi = inum(0), copy.deepcopy(i_ref), 0, m - 2
        else:               # all of them, i included
            start, end, lo, hi = inum(0), inum(m), 0, m - 1
        j_ref = Expr("var", val=vj, ty="int", lo=lo, hi=hi, bound=hi)
        elem_i = Expr("idx", (self.ref(a), i_ref), bound=CAP)
        elem_j = Expr("idx", (self.ref(a), j_ref), bound=CAP)
        t = self.fit(mul(self.squash(elem_j), self.fit(self.dexpr(1), CAP)), CAP)
        rhs = add(bin_("*", num(0.5), copy.deepcopy(elem_i), 0.5 * CAP),
                  bin_("*", num(0.5), t, 0.5 * CAP))
        update = Stmt("assign", lhs=Expr("idx", (self.ref(a, read=False), copy.deepcopy(i_ref)),
                                         bound=CAP), op="=", rhs=rhs)
        inner = Stmt("for", var=vj, decl=self.inline_decl, start=start, cmp="<", end=end,
                     step=1, pre=False, body=[update])
        return [Stmt("for", var=vi, decl=self.inline_decl, start=inum(0), cmp="<",
                     end=inum(m), step=1, pre=False, body=[inner])]

    def st_early_return(self, depth):
        """if (cond) return e;  inside a loop or branch of a function returning double."""
        if not self.returns_double or depth == 0 or self.frees:
            return None
        self.no_malloc = True  # a later malloc would leak on this path
        e = self.fit(add(self.dexpr(2), self.dleaf(True)), CAP)
        return [Stmt("if", cond=self.cond(0), then=[Stmt("return", e=e)], els=None)]

    def st_acc_new(self, depth):
        """double acc = 0; for (...) { ...; acc += ...; }"""
        if depth >= self.cfg.max_depth:
            return None
        name = self.fresh("acc")
        sym = self.declare(Sym(name, "dbl", "acc"))
        decl = Stmt("decl", ctype="double", name=name, init=num(0.0), size=None)
        self.pending_acc = sym
        loop = self.st_for(depth)
        self.pending_acc = None
        return [decl] + loop

    def statement(self, depth: int):
        """A statement (a list: declarations and set-up come with it), now and then followed
        by a fixed-point loop."""
        out = self._statement(depth)
        if self.rd.random() < self.cfg.fp_loops:
            out += self.st_fp_loop(depth) or []
        if self.ri.random() < self.cfg.independent_loops:
            out += self.st_independent_loop(depth) or []
        if self.rn.random() < self.cfg.dense_sums:
            out += self.st_dense_sum(depth) or []
        return out

    def _statement(self, depth: int):
        r = self.r
        in_loop = bool(self.loops)
        deep = depth < self.cfg.max_depth
        choices = [
            (self.st_assign_new, 2.0),
            (self.st_assign_scalar, 3.0),
            (self.st_array_write, 4.0 if in_loop else 1.5),
            (self.st_for, 3.0 if deep else 0),
            (self.st_while, 0.8 if deep else 0),
            (self.st_if, 1.5 if deep else 0),
            (self.st_call, 2.0 if self.callees else 0),
            (self.st_alias, 0.6),
            (self.st_local_array, (0.8 if self.loops else 0.4) if depth < 2 else 0),
            (self.st_malloc, 0.5 if depth == 0 else 0),
            (self.st_counter, 0.3 if depth < 2 else 0),
            (self.st_acc_new, 0.7),
            (self.st_early_return, 0.25 if depth > 0 else 0),
            (self.st_blas, 0.5),
        ]
        total = sum(w for _, w in choices)
        for _ in range(20):
            x = r.random() * total
            for fn, w in choices:
                x -= w
                if x < 0:
                    break
            out = fn(depth)
            if out:
                return out
        return self.st_assign_new(depth)

    def push(self, *syms):
        self.scopes.append(list(syms))

    def pop(self) -> list:
        self.scopes.pop()
        return []

    def consumer(self, sym: Sym) -> Stmt:
        """sink += 0.1 * f(v): gives a value that is never read a reader."""
        if sym.cls == "arr":
            e = Expr("idx", (self.ref(sym), inum(0)), bound=sym.bound)
        else:
            e = self.ref(sym)
        e = self.acc_read(sym, e) if sym.cls != "int" else bin_("*", num(0.01), e, 0.01 * e.bound)
        return Stmt("assign", lhs=self.sink_ref(), op="+=",
                    rhs=bin_("*", num(0.1), self.fit(e, CAP), 0.4))

    def add_consumers(self, body: list, params: list) -> list:
        """gcc -Wall -Wextra rejects parameters never referenced, double parameters and
        local scalars / fixed-size arrays set but never read: read those into the sink
        at the end of their block."""
        def fix_block(stmts):
            out = list(stmts)
            for i, st in enumerate(stmts):
                for b in st.blocks():
                    b[:] = fix_block(b)
            tail = []
            for i, st in enumerate(stmts):
                if st.kind != "decl" or st.name not in self.symtab:
                    continue
                sym = self.symtab[st.name]
                pointer = sym.cls == "arr" and not sym.fixed
                if not (names_used if pointer else names_read)(stmts[i + 1:]) & {st.name}:
                    tail.append(self.consumer(sym))
            return out + tail
        body[:] = fix_block(body)
        for sym in params:
            seen = names_read(body) if sym.cls == "dbl" else names_used(body)
            if sym.name not in seen:
                body.append(self.consumer(sym))
        return body

    def sink_ref(self) -> Expr:
        self.sink_used = True
        return Expr("var", val="sink", bound=1e30)

    def block(self, depth: int, n: int) -> list:
        out = []
        for _ in range(n):
            if self.budget <= 0:
                break
            self.budget -= 1
            out += self.statement(depth)
        if not out:
            out = self.statement(depth)
        return out

    # ------------------------------------------------------------ functions
    def function(self, name, ret, params, syms, budget, prologue_fn, epilogue_fn):
        r = self.r
        self.fname = name
        self.counter = {}
        self.scopes, self.symtab = [], {}
        self.loops, self.execs = [], 1
        self.top_ints = set()
        self.inline_decl = r.random() < 0.6
        self.frees = []
        self.sink_used = False
        self.pending_counter = self.pending_acc = None
        self.returns_double, self.no_malloc = ret == "double", False
        self.budget = budget
        for s in syms:
            s.param = True
        self.push(*syms)
        body = prologue_fn()
        while self.budget > 0:
            self.budget -= 1
            body += self.statement(0)
        # every helper gets called somewhere
        if name == HEAD_NAME:
            for c in self.callees:
                for _ in range(5):
                    if c.called:
                        break
                    body += self.st_call_specific(c) or []
        self.add_consumers(body, syms)
        for sym in self.syms("arr"):
            if sym.root in self.frees:
                sym.ready = False
        body += [pin(Stmt("free", name=n), n) for n in self.frees]
        body += epilogue_fn()
        self.scopes.pop()
        decls = []
        if not self.inline_decl:
            for v in LOOP_VARS:
                if v in self.top_ints:
                    decls.append(Stmt("decl", ctype="int", name=v, init=None, size=None))
        if self.sink_used:
            decls.append(Stmt("decl", ctype="double", name="sink", init=num(0.0), size=None))
        return Func(name, ret, params, decls + body)

    def st_call_specific(self, c: Callee):
        saved = self.callees
        self.callees = [c]
        try:
            return self.st_call(0)
        finally:
            self.callees = saved

    def sink_out(self, outs) -> list:
        """Fold the sink into an output array element at the end of a void function."""
        if not self.sink_used or not outs:
            return []
        a = outs[0]
        lhs = Expr("idx", (self.ref(a, read=False), inum(0)))
        t = call("tanh", self.sink_ref(), bound=1.0)
        if a.kind == "acc":
            return [Stmt("assign", lhs=lhs, op="+=", rhs=bin_("*", num(0.5), t, 0.5))]
        old = Expr("idx", (self.ref(a), inum(0)), bound=CAP)
        return [Stmt("assign", lhs=lhs, op="=",
                     rhs=add(bin_("*", num(0.5), old, 0.5 * CAP), bin_("*", num(0.5), t, 0.5)))]

    def ret_stmt(self) -> list:
        # an active term, so that the returned value depends on the inputs
        e = self.fit(add(self.dexpr(2), self.dleaf(True)), CAP)
        if self.sink_used:
            e = add(e, bin_("*", num(0.5), call("tanh", self.sink_ref(), bound=1.0), 0.5))
        return [pin(Stmt("return", e=self.fit(e, CAP)), "return")]

    def callee(self, idx: int, dims: dict) -> Func:
        r = self.r
        name = f"fz_f{idx}"
        m = r.choice(list(dims.values()))
        roles = [("m", "m")]
        n_in = r.randint(1, 2)
        n_out = r.choice((0, 1, 1, 2))
        n_scal = r.randint(0, 2)
        returns = n_out == 0 or r.random() < 0.6
        for i in range(n_in):
            # a read-only array parameter declared without const now and then
            roles.append(("inp" if r.random() < 0.8 else "inpnc", "uv"[i]))
        outs = []
        for i in range(n_out):
            role = r.choice(("out", "inout", "acc"))
            roles.append((role, ("o", "w")[i]))
        for i in range(n_scal):
            roles.append(("scal", ("alpha", "beta")[i]))
        head, rest = roles[:1], roles[1:]
        r.shuffle(rest)
        roles = head + rest
        params, syms = [], []
        for role, pname in roles:
            if role == "m":
                params.append(Param("int", "m"))
                syms.append(Sym("m", "int", lo=m, hi=m, param=True))
            elif role in ("inp", "inpnc"):
                const = role == "inp"
                params.append(Param("const double *" if const else "double *", pname))
                syms.append(Sym(pname, "arr", "in", length=m, writable=False, const=const))
            elif role == "scal":
                params.append(Param("double", pname))
                syms.append(Sym(pname, "dbl"))
            else:
                params.append(Param("double *", pname))
                s = Sym(pname, "arr", "acc" if role == "acc" else "norm", length=m)
                syms.append(s)
                outs.append((role, s))
        outsyms = [s for _, s in outs]

        def prologue():
            body = []
            for role, s in outs:
                if role == "out":  # pure output: written in full before anything reads it
                    self.budget -= 1
                    body.append(pin(self.fill_loop(s, 0, m, self.ref(syms[0], read=False)), s.name))
            return body

        def epilogue():
            if returns:
                return self.ret_stmt()
            return self.sink_out(outsyms)

        budget = r.randint(*self.cfg.callee_stmts)
        f = self.function(name, "double" if returns else "void", params, syms, budget,
                          prologue, epilogue)
        self.callees.append(Callee(name, m, roles, returns, pure=not outs,
                                   allocates=self.allocates(f.body)))
        return f

    def allocates(self, stmts) -> bool:
        """Whether stmts use memory of malloc or call a helper that does: a call of such a
        helper cannot run in joint mode."""
        names = names_used(stmts)
        calls = called_names(stmts)
        return any(n in names for n in self.frees) or \
            any(c.allocates and c.name in calls for c in self.callees)

    def head(self, dims: dict):
        r = self.r
        n = dims["n"]
        params, syms, args = [], [], []
        for dn, dv in dims.items():
            params.append(Param("int", dn))
            syms.append(Sym(dn, "int", lo=dv, hi=dv, param=True))
            args.append(Arg(dn, f"int = {dv}"))
        has_d = "d" in dims
        indep, dep = [], []

        def length():
            if has_d and r.random() < 0.5:
                return "n*d", n * dims["d"]
            return "n", n

        rest = []  # (Param, Sym, Arg)
        lx, vx = length()
        lo, hi = r.choice(((-1, 1), (-1, 1), (0, 1), (0.2, 1.5), (-2, 2)))
        const = r.random() < 0.8
        xsym = Sym("x", "arr", "in", bound=max(abs(lo), abs(hi)), length=vx, writable=False,
                   const=const)
        rest.append((Param("const double *" if const else "double *", "x"), xsym,
                     Arg("x", f"double[{lx}] = uniform({lo}, {hi})")))
        indep.append("x")
        if r.random() < 0.3:  # a passive input array: no derivative parameter
            lc, vc = length()
            rest.append((Param("const double *", "c"),
                         Sym("c", "arr", "in", bound=1.0, length=vc, writable=False, const=True),
                         Arg("c", f"double[{lc}]")))
        ly, vy = length()
        ykind = "acc" if r.random() < 0.35 else "norm"
        ysym = Sym("y", "arr", ykind, length=vy)
        rest.append((Param("double *", "y"), ysym, Arg("y", f"double[{ly}]")))
        dep.append("y")
        zsym = None
        if r.random() < 0.5:  # in/out array
            lz, vz = length()
            zsym = Sym("z", "arr", "norm", length=vz)
            rest.append((Param("double *", "z"), zsym, Arg("z", f"double[{lz}]")))
            dep.append("z")
            indep.append("z")
        if r.random() < 0.7:
            rest.append((Param("double", "a"), Sym("a", "dbl"), Arg("a", "double = uniform(-1, 1)")))
            indep.append("a")
        if r.random() < 0.25:  # passive scalar
            rest.append((Param("double", "b"), Sym("b", "dbl", "in", bound=1.0, writable=False),
                         Arg("b", "double = 0.75")))
        r.shuffle(rest)
        for p, s, a in rest:
            params.append(p)
            syms.append(s)
            args.append(a)
        returns = r.random() < 0.5
        if returns:
            dep.append(HEAD_NAME)

        def prologue():
            # y is a pure output: written in full first (zero for an accumulator)
            self.budget -= 1
            dimsyms = {s.name: s for s in syms if s.cls == "int"}

            def lenexpr(spec, value):
                if spec == "n*d":
                    return ibin("*", self.ref(dimsyms["n"]), self.ref(dimsyms["d"]))
                return self.ref(dimsyms["n"]) if spec == "n" else inum(value)
            body = [pin(self.fill_loop(ysym, 0, vy, lenexpr(ly, vy),
                                       num(0.0) if ykind == "acc" else None, source=xsym), "y")]
            if self.infer:
                # adgen infers the array lengths from the code: read every input array in
                # full once, so that its length shows (else "set, not accumulated" cannot
                # hold for elements the code never touches)
                for p_, sym, arg in rest:
                    if sym.cls == "arr" and sym is not ysym:
                        spec = re.match(r"double\[(.*?)\]", arg.spec).group(1)
                        loop = self.fill_loop(sym, 0, sym.length, lenexpr(spec, sym.length))
                        elem = loop.body[0].lhs
                        loop.body = [Stmt("assign", lhs=self.sink_ref(), op="+=",
                                          rhs=bin_("*", num(0.01), elem, 0.01 * sym.bound))]
                        body.append(pin(loop, sym.name))
            return body

        def epilogue():
            if returns:
                return self.ret_stmt()
            return self.sink_out([ysym] + ([zsym] if zsym else []))

        # most programs give the array sizes so that failures are about derivatives;
        # one in four leaves adgen to infer them from the code
        self.infer = r.random() < self.cfg.infer_sizes
        budget = r.randint(*self.cfg.head_stmts)
        f = self.function(HEAD_NAME, "double" if returns else "void", params, syms, budget,
                          prologue, epilogue)
        return f, args, dep, indep

    def program(self) -> Program:
        r = self.r
        dims = {"n": r.randint(3, 7)}
        if r.random() < 0.6:
            dims["d"] = r.randint(2, 4)
        funcs = []
        for i in range(r.randint(*self.cfg.callees)):
            funcs.append(self.callee(i + 1, dims))
        head, args, dep, indep = self.head(dims)
        funcs.append(head)
        funcs = reachable(funcs)
        structs = []
        handles = self.rh.random() < self.cfg.struct_handles
        if handles:
            funcs, structs = with_struct_handles(funcs, self.rh)
        if len(funcs) > 1 and self.rc.random() < self.cfg.callbacks:
            funcs = with_callback(funcs, self.rc)
        if self.rs.random() < self.cfg.global_pointer and \
                with_global_pointer(head, self.rs, params=not self.infer):
            structs.append("static double *fz_gp;")
        if self.rb.random() < self.cfg.double_buffer:
            # the buffers malloc'd half the time
            own = random.Random(self.seed * 1073741789 + 131).random() < 0.5
            with_double_buffer(head, args, dims, self.rb, own)
            if own:
                self.uses_malloc = head.allocates = True
        for k, f in enumerate(funcs):
            if self.rg.random() < self.cfg.global_locals:
                structs += with_global_locals(f, f"fz_g{k + 1}_", self.rg)
            if self.rs.random() < self.cfg.struct_locals:
                structs += with_struct_locals(f, f"fz_s{k + 1}", self.rs)
        if handles:
            drop_keeping_directives(funcs)
        # the head's arrays in a handle: its own stream, after everything else (the
        # programs of the other seeds stay as they were)
        rk = random.Random(self.seed * 2147483647 + 59)
        handle = None
        if rk.random() < self.cfg.head_handles:
            handle = with_head_handle(head, args, dep, indep, rk, self.cfg.head_handle_const,
                                      self.cfg.head_handle_nested_arrays)
            # adgen cannot keep memory a pointer held in a struct may reach
            drop_keeping_directives(funcs)
        # break and continue as goto: a stream of its own too
        rg = random.Random(self.seed * 2147483647 + 61)
        if rg.random() < self.cfg.gotos:
            with_gotos(funcs, rg)
        sizes = "infer" if self.infer else "give"
        return Program(seed=self.seed, funcs=funcs, args=args, dep=dep, indep=indep,
                       structs=structs, handle=handle,
                       tol=self.cfg.tol, comment=f"generated by tests.fuzz, seed {self.seed}",
                       test_seed=1 + self.seed % 1000, uses_malloc=self.uses_malloc, sizes=sizes,
                       uses_blas=self.uses_blas, uses_fortran_blas=self.uses_fortran_blas)


def _expr_names(e: Expr, out: set):
    for x in e.walk():
        if x.op == "var":
            out.add(x.val)
            out.add(re.split(r"\.|->", x.val)[0])    # a field `fz_w.s1` uses the struct fz_w


def names_used(stmts) -> set:
    """Every variable name occurring in stmts."""
    out = set()
    for s in stmts:
        for e in s.exprs():
            _expr_names(e, out)
        if s.kind == "free":
            out.add(s.name)
        for b in s.blocks():
            out |= names_used(b)
    return out


def names_read(stmts) -> set:
    """Names whose value is read (the target of an assignment or ++ is not read)."""
    out = set()
    for s in stmts:
        targets = []
        if s.kind == "assign":
            targets, rest = [s.lhs], [s.rhs]
        elif s.kind == "incdec":
            targets, rest = [s.e], []
        else:
            rest = s.exprs()
        for t in targets:
            if t.op == "idx":
                _expr_names(t.args[1], out)
                if t.args[0].op != "var":
                    _expr_names(t.args[0], out)
        for e in rest:
            _expr_names(e, out)
        for b in s.blocks():
            out |= names_read(b)
    return out


def _comparisons(e: Expr) -> list:
    """The comparisons of a test, through && and ||."""
    if e.op == "bin" and e.val in LOGIC:
        return _comparisons(e.args[0]) + _comparisons(e.args[1])
    return [e] if e.op == "bin" and e.val in ("<", ">", "<=", ">=") else []


def leaves_loop(body) -> bool:
    """Whether a loop with this body may be left by break or return (its number of steps is
    then not counted, as binomial checkpointing requires)."""
    for s in body:
        if s.kind in ("break", "return") or s.kind == "goto" and s.name.startswith("done"):
            return True
        if s.kind == "if" and any(leaves_loop(b) for b in s.blocks()):
            return True
        if s.kind in ("for", "while", "do", "switch") and \
                any(x.kind == "return" for b in s.blocks() for x in walk(b)):
            return True
    return False


def walk(stmts):
    """Every statement of stmts, nested ones included."""
    for s in stmts:
        yield s
        for b in s.blocks():
            yield from walk(b)


def called_names(stmts) -> set:
    """Functions called, or passed to a call (op "fn")."""
    return {x.val for s in walk(stmts) for e in s.exprs() for x in e.walk()
            if x.op in ("call", "fn")}


def with_callback(funcs: list, r: random.Random) -> list:
    """The program with a helper `fz_via` that calls the function it is given, taking the
    place of some calls of one helper F: `fz_via(F, args)` for `F(args)`. The values are the
    same; adgen must specialize fz_via for F. (An expression may stand at several places
    of a program: each call is rewritten once.)"""
    f = r.choice(funcs[:-1])
    types = ", ".join(p.ctype for p in f.params)
    params = [Param(f"{f.ret} (*)({types})", "fn")] + \
        [Param(p.ctype, p.name) for p in f.params]
    call_ = Expr("call", [Expr("var", val=p.name) for p in f.params], val="fn", bound=CAP)
    body = [Stmt("return", e=call_)] if f.ret != "void" else [Stmt("expr", e=call_)]
    via = Func("fz_via", f.ret, params, body)
    calls = list({id(x): x for g in funcs for s in walk(g.body) for e in s.exprs()
                  for x in e.walk() if x.op == "call" and x.val == f.name}.values())
    chosen = [x for x in calls if r.random() < 0.6] or calls[:1]
    for x in chosen:
        x.args = [Expr("fn", val=f.name)] + list(x.args)
        x.val = via.name
    k = funcs.index(f)
    return funcs[:k + 1] + [via] + funcs[k + 1:]


HANDLE_TYPES = {"double *": ("fz_vec", "fz_vec_of"), "const double *": ("fz_cvec", "fz_cvec_of")}


def with_struct_handles(funcs: list, r: random.Random) -> tuple:
    """Passes one array parameter of a helper inside a small struct by value, as C code
    passes handles: `fz_vec {double *v; double scale; int len;}` made by a function
    returning it (`fz_vec_of(a, s)` at each call), the helper taking `u_h` and reading
    `double *u = u_h.v;` first; half the time it walks its copy's pointer on the way
    (`u_h.v = u_h.v + 1; double *u = u_h.v - 1;`). A written array's first store is scaled
    by `u_h.scale`, in [0.5, 1] (a tanh of a double argument of the call), which keeps the
    generator's bounds. adgen must carry the pointer's shadow into the struct and out of
    the function returning it, and the scale's adjoint back through the copies. The
    program's directives for checkpointing and fixed-point loops must go (see
    drop_keeping_directives)
    Returns (funcs, struct definition lines); funcs unchanged when no helper has an array
    parameter."""
    cands = [(f, k) for f in funcs[:-1] for k, p in enumerate(f.params)
             if p.ctype in HANDLE_TYPES]
    if not cands:
        return funcs, []
    f, k = r.choice(cands)
    p = f.params[k]
    stype, maker = HANDLE_TYPES[p.ctype]
    handle = p.name + "_h"
    f.params[k] = Param(stype, handle)
    field = Expr("var", val=f"{handle}.v", ty="ptr")
    prologue = [Stmt("decl", ctype=p.ctype, name=p.name, init=field, size=None)]
    if r.random() < 0.5:
        prologue = [Stmt("assign", lhs=copy.copy(field), op="=",
                         rhs=bin_("+", copy.copy(field), inum(1), ty="ptr")),
                    Stmt("decl", ctype=p.ctype, name=p.name,
                         init=bin_("-", copy.copy(field), inum(1), ty="ptr"), size=None)]
    first = next((st for st in walk(f.body) if st.kind == "assign" and st.op == "=" and
                  st.lhs.op == "idx" and st.lhs.args[0].op == "var" and
                  st.lhs.args[0].val == p.name), None)
    if first is not None:
        first.rhs = mul(first.rhs, Expr("var", val=f"{handle}.scale", bound=1.0))
    f.body[:0] = prologue
    # (an expression may stand at several places of a program: each call is rewritten once)
    calls = {id(x): x for g in funcs for st in walk(g.body) for e in st.exprs()
             for x in e.walk() if x.op == "call" and x.val == f.name}
    for x in calls.values():
        scalars = [a for a in x.args if a.ty == "double" and
                   not any(y.op == "call" and y.val.startswith("fz_") for y in a.walk())]
        scale = add(num(0.75), mul(num(0.25), call(
            "tanh", copy.deepcopy(r.choice(scalars)), bound=1.0))) if scalars else num(0.875)
        x.args[k] = Expr("call", [x.args[k], scale], val=maker, ty="ptr")
    make = Func(maker, stype, [Param(p.ctype, "v"), Param("double", "s")], [
        Stmt("decl", ctype=stype, name="h", init=None, size=None),
        Stmt("assign", lhs=Expr("var", val="h.v", ty="ptr"), op="=",
             rhs=Expr("var", val="v", ty="ptr")),
        Stmt("assign", lhs=Expr("var", val="h.scale"), op="=", rhs=Expr("var", val="s")),
        Stmt("assign", lhs=Expr("var", val="h.len", ty="int"), op="=", rhs=inum(1)),
        Stmt("return", e=Expr("var", val="h", ty="ptr"))])
    return [make] + funcs, [f"typedef struct {{ {p.ctype}v; double scale; int len; }} {stype};"]


def with_head_handle(head: Func, args: list, dep: list, indep: list, r: random.Random,
                     const_share: float = 0.5, nested_arrays: float = 0.5):
    """Passes some of the head's parameters in a handle, `fz_hd`, a struct holding pointers
    that the head takes by pointer or by value and that is an independent and/or a
    dependent, as simulation codes pass a mesh or a state: arrays (`double *y =
    fz_hd->y;` first in the body; a read-only one held as `const double *` with the share
    `const_share`), now and then the scalar `a` (`double a = fz_hd->a;`), the sizes (`int
    n = fz_hd->n;`, the arg lines' lengths then `fz_hd.n`), a nested struct its field
    `sub` points to (`fz_hd->sub->a`; arrays there, `fz_hd->sub->x`, with the share
    `nested_arrays`), unused integer data (`int len`, `int *tag`) and, in a handle by
    pointer that holds an output array, an output field set from it once it is written
    (`fz_hd->s = 0.5 * tanh(y[0]);`). The values are the same. The handle is an
    independent if it holds what the head reads (x, c, z, a), a dependent if it holds what
    it writes (y, z, s): every part of a dependent handle must be written or also be an
    independent. Returns the HeadHandle; head, args, dep and indep are changed."""
    params = {p.name: p for p in head.params}
    arrays = [n for n in ("x", "c", "y", "z") if n in params]
    kind = r.choice(("in", "out", "mixed", "mixed"))
    if kind == "in":
        moved = [n for n in ("x", "c") if n in params and r.random() < 0.7] or ["x"]
    elif kind == "out":
        moved = ["y"]
    else:
        moved = [n for n in arrays if r.random() < 0.5] or [r.choice(arrays)]
    nest = r.random() < 0.3
    if "a" in params and kind != "out" and (nest or r.random() < 0.4):
        moved.append("a")
    pointer = r.random() < 0.6
    writes = any(n in moved for n in ("y", "z"))
    reads = any(n in moved for n in ("x", "c", "z", "a"))
    const = pointer and not writes and r.random() < 0.5
    dims = [p.name for p in head.params if p.ctype == "int"]
    move_dims = r.random() < 0.25
    arg_of = {a.name: a for a in args}
    fields = []
    if move_dims:
        fields += [HandleField(d, "int", arg_of[d].spec) for d in dims]
    else:
        fields.append(HandleField("len", "int", arg_of[dims[0]].spec))     # not used
    for n in moved:
        p = params[n]
        if p.ctype == "double":
            fields.append(HandleField(n, "double", arg_of[n].spec, nested=nest))
            continue
        ctype = p.ctype if r.random() < const_share else "double *"
        fields.append(HandleField(n, ctype, arg_of[n].spec,
                                  nested=nest and r.random() < nested_arrays))
    if r.random() < 0.2:        # integer data: not a part (after the sizes it uses)
        first = len(dims) if move_dims else 1
        fields.insert(r.randint(first, len(fields)),
                      HandleField("tag", "int *", f"int[{dims[0]}] = range(0, 3)"))
    handle = HeadHandle(pointer=pointer, const=const, fields=fields)
    prologue = [Stmt("decl", ctype=params[f.name].ctype, name=f.name, size=None,
                     init=Expr("var", val=handle.access(f),
                               ty="ptr" if f.ctype.endswith("*") else
                               "int" if f.ctype == "int" else "double"))
                for f in fields if f.name in params]
    head.body[:0] = prologue
    out = [n for n in ("y", "z") if n in moved]
    if pointer and out and r.random() < 0.4:
        # an output field, set once the array it reads is (y: after its fill loop; the
        # head may return early)
        q = r.choice(out)
        s_field = HandleField("s", "double", "double")
        handle.fields.append(s_field)
        at = next((k + 1 for k, st in enumerate(head.body) if st.pinned and st.owner == q),
                  len(prologue))
        elem = Expr("idx", (Expr("var", val=q, ty="ptr"), inum(0)), bound=CAP)
        head.body.insert(at, pin(Stmt("assign", lhs=Expr("var", val=handle.access(s_field)),
                                      op="=", rhs=bin_("*", num(0.5),
                                                       call("tanh", elem, bound=1.0), 0.5)),
                                 handle.name))
    # the parameter, at the place of the first one it replaces
    gone = {f.name for f in fields if f.name in params}
    at = min(k for k, p in enumerate(head.params) if p.name in gone)
    head.params[:] = [p for p in head.params[:at] if p.name not in gone] + [handle.param()] + \
        [p for p in head.params[at:] if p.name not in gone]
    k = min(k for k, a in enumerate(args) if a.name in gone)
    args[:] = [a for a in args[:k] if a.name not in gone] + [Arg(handle.name, "handle")] + \
        [a for a in args[k:] if a.name not in gone]
    if move_dims:       # the lengths of the arg lines read the sizes from the handle
        for a in args + fields:
            a.spec = re.sub(r"\[(.*?)\]", lambda m: "[" + re.sub(
                r"\b(" + "|".join(dims) + r")\b", handle.name + r".\1", m.group(1)) + "]",
                a.spec)
    for role, names in ((writes, dep), (reads, indep)):
        kept = [n for n in names if n not in gone]
        if role and handle.name not in kept:
            kept.append(handle.name)
        names[:] = kept
    if not pointer and kind == "out" and "a" in params and r.random() < 0.9:
        # the scalar `a` held by value in a handle that is a dependent only: an input of
        # the head that is no independent (its derivative struct's copy of it is no
        # output either: the adjoint must leave it alone)
        field_a = HandleField("a", "double", arg_of["a"].spec)
        handle.fields.append(field_a)
        head.body.insert(0, Stmt("decl", ctype="double", name="a", size=None,
                                 init=Expr("var", val=handle.access(field_a), ty="double")))
        head.params[:] = [p for p in head.params if p.name != "a"]
        args[:] = [a for a in args if a.name != "a"]
        indep[:] = [n for n in indep if n != "a"]
    return handle


def with_gotos(funcs: list, r: random.Random) -> None:
    """Rewrites the break and continue of some loops as gotos, as C written with goto
    leaves a loop or goes on with it: `goto doneK;` to a label just after the loop, `goto
    nextK;` to a label ending its body (a for loop's step then runs, as after continue)."""
    count = [0]

    def own_jumps(stmts):
        """The break and continue statements of the loop whose body is stmts (not those
        of a loop or switch inside it)."""
        for s in stmts:
            if s.kind in ("break", "continue"):
                yield s
            elif s.kind == "if":
                for b in s.blocks():
                    yield from own_jumps(b)

    def rewrite(stmts, in_case=False):
        out = []
        for s in stmts:
            for b in s.blocks():
                b[:] = rewrite(b, in_case or s.kind == "switch")
            out.append(s)
            jumps = list(own_jumps(s.body)) if s.kind in ("for", "while", "do") else []
            # (not a loop anywhere in a switch's case: gcc's -Wimplicit-fallthrough takes a
            # label after it that ends the case for a case the loop falls into; the draw is
            # made all the same)
            if not jumps or r.random() < 0.2 or in_case:
                continue
            count[0] += 1
            k = count[0]
            for j in jumps:
                j.name = f"done{k}" if j.kind == "break" else f"next{k}"
                j.kind = "goto"
            if any(j.name == f"next{k}" for j in jumps):
                s.body.append(Stmt("label", name=f"next{k}"))
            if any(j.name == f"done{k}" for j in jumps):
                out.append(Stmt("label", name=f"done{k}"))
        return out

    for f in funcs:
        f.body[:] = rewrite(f.body)


def drop_keeping_directives(funcs: list) -> None:
    """Removes the directives of checkpointed calls and loops and of fixed-point loops:
    adgen cannot keep memory that a pointer held in a struct may reach (all memory of the
    points-to class of an array passed in a handle)."""
    for g in funcs:
        for st in walk(g.body):
            if st.pragma and st.pragma.split("(")[0] in ("checkpoint", "binomial_ckp",
                                                          "fp_loop"):
                st.pragma = None


def with_global_pointer(f: Func, r: random.Random, params: bool) -> bool:
    """Points a global `fz_gp` at one of f's arrays: a malloc'd block declared in its
    body's top level (just after the declaration), or (params) an array
    parameter it writes (first thing in the body), and has some of the references to the
    array after that go through fz_gp instead. The values are the same; adgen must follow
    the global pointer's derivatives. False when f has no such array."""
    # (not a fixed-size local array: its address left in the global when f returns makes
    # gcc warn, -Wdangling-pointer)
    places = [(k + 1, s.name) for k, s in enumerate(f.body) if s.kind == "decl" and
              s.ctype == "double *"]
    if params:
        places += [(0, p.name) for p in f.params if p.ctype == "double *"]
    if not places:
        return False
    k, name = r.choice(places)
    for st in walk(f.body[k:]):
        for e in st.exprs():
            for x in e.walk():
                if x.op == "var" and x.val == name and r.random() < 0.6:
                    x.val = "fz_gp"
    f.body.insert(k, Stmt("assign", lhs=Expr("var", val="fz_gp"), op="=",
                          rhs=Expr("var", val=name)))
    return True


def with_double_buffer(head: Func, args: list, dims: dict, r: random.Random,
                       own: bool = False) -> None:
    """Double buffering, as time steppers write it: two buffers of x's length, one set
    from x, reached through pointers fz_pa, fz_pb that a loop of a few steps (checkpointed
    half the time) swaps after each step; the result goes into y at the end of the head
    (before its return). The buffers are local arrays fz_ba, fz_bb or (own) blocks malloc'd
    into fz_pa and fz_pb and freed at the end. Values stay within the generator's bounds.
    adgen must move each pointer's shadow with it, also in the steps a checkpointed loop
    runs again, and keep both blocks in a checkpointed loop's states."""
    def length(name):
        spec = next(a.spec for a in args if a.name == name)
        return eval(re.match(r"double\[(.*?)\]", spec).group(1), {}, dict(dims))
    n, m = length("x"), length("y")
    steps = r.randint(2, 5)
    i = Expr("var", val="fz_i", ty="int", lo=0, hi=n - 1)
    ba, bb, pa, pb, pt = (Expr("var", val=v, ty="ptr")
                          for v in ("fz_ba", "fz_bb", "fz_pa", "fz_pb", "fz_pt"))

    def at(a, k):
        return Expr("idx", (copy.copy(a), k), bound=CAP)

    def each(body):
        return Stmt("for", var="fz_i", decl=True, start=inum(0), cmp="<", end=inum(n), step=1,
                    pre=False, body=body)
    x = Expr("idx", (Expr("var", val="x", ty="ptr"), copy.copy(i)), bound=2.0)
    after = ibin("%", ibin("+", copy.copy(i), inum(1)), inum(n))
    step_value = add(mul(num(0.5), at(pa, copy.copy(i))),
                     mul(num(0.3), call("tanh", at(pa, after), bound=1.0)))
    loop = Stmt("for", var="fz_s", decl=True, start=inum(0), cmp="<", end=inum(steps), step=1,
                pre=False, body=[
                    each([Stmt("assign", lhs=at(pb, copy.copy(i)), op="=", rhs=step_value)]),
                    Stmt("assign", lhs=copy.copy(pt), op="=", rhs=copy.copy(pa)),
                    Stmt("assign", lhs=copy.copy(pa), op="=", rhs=copy.copy(pb)),
                    Stmt("assign", lhs=copy.copy(pb), op="=", rhs=copy.copy(pt))])
    if r.random() < 0.5:
        loop.pragma = f"binomial_ckp({steps}, {r.choice((1, 2, 3))}, 0)"
    y0 = Expr("idx", (Expr("var", val="y", ty="ptr"), inum(r.randrange(m))), bound=CAP)
    if own:
        def block_of_n():
            size = Expr("var", val="sizeof(double)", ty="int")
            return Expr("call", (Expr("bin", (inum(n), size), val="*", ty="int"),),
                        val="malloc", ty="ptr")
        block = [Stmt("decl", ctype="double *", name="fz_pa", init=block_of_n(), size=None),
                 Stmt("decl", ctype="double *", name="fz_pb", init=block_of_n(), size=None),
                 each([Stmt("assign", lhs=at(pa, copy.copy(i)), op="=", rhs=mul(num(0.5), x)),
                       Stmt("assign", lhs=at(pb, copy.copy(i)), op="=", rhs=num(0.0))])]
    else:
        block = [Stmt("decl", ctype="double", name="fz_ba", init=None, size=n, zero=False),
                 Stmt("decl", ctype="double", name="fz_bb", init=None, size=n, zero=True),
                 each([Stmt("assign", lhs=at(ba, copy.copy(i)), op="=",
                            rhs=mul(num(0.5), x))]),
                 Stmt("decl", ctype="double *", name="fz_pa", init=copy.copy(ba), size=None),
                 Stmt("decl", ctype="double *", name="fz_pb", init=copy.copy(bb), size=None)]
    block += [Stmt("decl", ctype="double *", name="fz_pt", init=None, size=None),
              loop,
              Stmt("assign", lhs=y0, op="+=",
                   rhs=mul(num(0.1), add(at(pa, inum(0)), at(pb, inum(n - 1)))))]
    if own:
        block += [Stmt("free", name="fz_pa"), Stmt("free", name="fz_pb")]
    last = head.body[-1] if head.body else None
    at_end = len(head.body) - 1 if last is not None and last.kind == "return" else len(head.body)
    head.body[at_end:at_end] = block


def with_global_locals(f: Func, prefix: str, r: random.Random) -> list:
    """Moves some of f's local doubles and fixed-size arrays of doubles (declared once) to
    file scope, as static globals named prefix + name, as programs keep scratch and state
    buffers off the stack: a declaration with a value becomes an assignment where it was
    (`= {0.0}` one per element), so every call sets them before reading them and the values
    are the same. adgen must give them shadows, store and restore them as it does locals.
    Returns the lines declaring them (none if no local was chosen)."""
    decls = [s for s in walk(f.body) if s.kind == "decl"]
    counts = {}
    for s in decls:
        counts[s.name] = counts.get(s.name, 0) + 1
    chosen = [s for s in decls if s.ctype == "double" and counts[s.name] == 1 and
              (s.size is None or isinstance(s.size, int)) and r.random() < 0.5]
    if not chosen:
        return []
    names = {s.name for s in chosen}
    for st in walk(f.body):
        for e in st.exprs():
            for x in e.walk():
                if x.op == "var" and x.val in names:
                    x.val = prefix + x.val
        if st.pinned and st.owner in names:
            st.owner = prefix + st.owner

    def undeclare(stmts):
        out = []
        for st in stmts:
            for b in st.blocks():
                b[:] = undeclare(b)
            if st.kind == "decl" and st.name in names:
                g = Expr("var", val=prefix + st.name)
                if st.init is not None:
                    out.append(Stmt("assign", lhs=g, op="=", rhs=st.init))
                elif st.size is not None and st.zero:     # `= {0.0}`, element by element
                    out += [Stmt("assign", lhs=Expr("idx", [copy.copy(g), inum(k)]), op="=",
                                 rhs=num(0.0)) for k in range(st.size)]
                continue
            out.append(st)
        return out

    f.body[:] = undeclare(f.body)
    return [f"static double {prefix}{s.name}{'' if s.size is None else f'[{s.size}]'};"
            for s in chosen]


def with_struct_locals(f: Func, tag: str, r: random.Random) -> list:
    """Keeps some of f's local doubles and fixed-size arrays of doubles (declared once) in
    one local struct `fz_w` of type `struct tag`: each `x` of the body becomes `fz_w.x`, a
    declaration with a value an assignment (`= {0.0}` one per element). Sometimes the
    struct is then copied whole, at a statement of the body's top level, into a second one
    `fz_v` that the statements after it use. The values are the same; adgen must follow
    the fields and the copy. Returns the lines defining the struct (none if no local was
    chosen)."""
    decls = [s for s in walk(f.body) if s.kind == "decl"]
    counts = {}
    for s in decls:
        counts[s.name] = counts.get(s.name, 0) + 1
    chosen = [s for s in decls if s.ctype == "double" and counts[s.name] == 1 and
              (s.size is None or isinstance(s.size, int)) and
              (s.size is not None or r.random() < 0.75)]
    if not chosen:
        return []
    names = {s.name for s in chosen}
    copy_at = None
    if r.random() < 0.5 and len(f.body) > 2:
        copy_at = r.randint(1, len(f.body) - 1)
        if not names & names_read(f.body[copy_at:]):
            copy_at = None      # (gcc: fz_v set but not used)

    def rename(stmts, holder):
        for st in walk(stmts):
            for e in st.exprs():
                for x in e.walk():
                    if x.op == "var" and x.val in names:
                        x.val = f"{holder}.{x.val}"
            if st.pinned and st.owner in names:
                st.owner = holder

    def undeclare(stmts, holder):
        out = []
        for st in stmts:
            for b in st.blocks():
                b[:] = undeclare(b, holder)
            if st.kind == "decl" and st.name in names:
                if st.init is not None:
                    out.append(Stmt("assign", lhs=Expr("var", val=f"{holder}.{st.name}"),
                                    op="=", rhs=st.init))
                elif st.size is not None and st.zero:     # `= {0.0}`, element by element
                    out += [Stmt("assign", lhs=Expr("idx", [Expr("var", val=f"{holder}."
                                                                 f"{st.name}"), inum(k)]),
                                 op="=", rhs=num(0.0)) for k in range(st.size)]
                continue
            out.append(st)
        return out

    # expressions may be shared between statements: each is renamed once, by its first
    # holder (a copy's statements are those after it, which share none with those before)
    before = f.body if copy_at is None else f.body[:copy_at]
    after = [] if copy_at is None else f.body[copy_at:]
    rename(before, "fz_w")
    rename(after, "fz_v")
    body = undeclare(before, "fz_w")
    # copied whole, fz_w is set first: some fields may not be by then
    zero = Expr("var", val="{0}") if copy_at is not None else None
    decl = [Stmt("decl", ctype=f"struct {tag}", name="fz_w", init=zero, size=None)]
    if copy_at is not None:
        decl.append(Stmt("decl", ctype=f"struct {tag}", name="fz_v", init=None, size=None))
        body += [Stmt("assign", lhs=Expr("var", val="fz_v"), op="=",
                      rhs=Expr("var", val="fz_w"))] + undeclare(after, "fz_v")
    f.body[:] = decl + body
    fields = [f"    double {s.name}{'' if s.size is None else f'[{s.size}]'};" for s in chosen]
    return [f"struct {tag} {{"] + fields + ["};"]


def reachable(funcs: list) -> list:
    """Functions called, directly or not, from the head (the last one), in order."""
    by_name = {f.name: f for f in funcs}
    seen, todo = {funcs[-1].name}, [funcs[-1]]
    while todo:
        for n in called_names(todo.pop().body):
            if n in by_name and n not in seen:
                seen.add(n)
                todo.append(by_name[n])
    return [f for f in funcs if f.name in seen]


def generate_program(seed: int, cfg: Config | None = None) -> Program:
    return Gen(seed, cfg).program()


def generate(seed: int, cfg: Config | None = None) -> str:
    """C source of the program named by seed."""
    return render(generate_program(seed, cfg))
