"""Seeded random Fortran (free-form .f90) program generator for fuzzing adgen.

The Fortran counterpart of generator.py, over the subset docs/fortran.md supports: a
module with variables, a parameter array and helper procedures (subroutines with
intent(in/out/inout) scalars and explicit-shape arrays, functions), and an external head
procedure that uses it.  Statements mix DO loops (steps, data-dependent ends, named
loops with EXIT/CYCLE), DO WHILE with a counter bound, IF / ELSE IF, SELECT CASE,
array syntax and sections, WHERE / ELSEWHERE, reductions, elemental intrinsics, `**`,
calls, 2-D arrays and arrays with lower bounds other than 1.

A program is a tree of statements (Stmt) rendered to text, so that the minimizer
(fortran_minimize.py) can delete statements and render a program again; declarations
are written for the names the body uses.  As in generator.py the programs are safe by
construction: the sizes are fixed by the `arg` lines and every index is checked against
the concrete bounds with interval arithmetic; every real expression carries a static
magnitude bound and what is stored in a variable is scaled or squashed with tanh to stay
below CAP; math functions only get arguments inside their domains.  Branches, WHERE masks,
min/max/abs and data-dependent trip counts compare values with continuous distributions,
so a finite-difference step straddles a kink only rarely (the runner re-checks such a
failure with other inputs).
"""

from __future__ import annotations

import contextlib
import random
import re
from dataclasses import dataclass, field

from .generator import NICE, nice_down

CAP = 4.0           # magnitude kept by every real variable
SQUASH = 20.0       # operands above this are squashed before being combined further
HEAD_NAME = "fz_head"
MODULE = "fz_mod"
LOOP_VARS = ("i", "j", "ii", "jj")   # DO variable by nesting depth
MAX_LINE = 100      # free form allows 132 characters; longer statements are continued
DIRECTIVES = 0.25   # share of DO loops checkpointed (BINOMIAL-CKP), of CALLs in split mode
FP_LOOPS = 0.03     # chance of a fixed-point loop (!$AD FP-LOOP) after a statement
ALLOCATABLE = 0.3   # share of local arrays declared allocatable (half of those outside loops
                    # allocated by their first assignment)
SCALAR_FIRST = 0.5  # share of array expressions `scalar op array` written scalar first
# From the second stream too (a seed's program keeps its shape otherwise):
OPTIONAL = 0.4      # share of subroutines given an OPTIONAL scalar or array dummy
CSHIFT = 0.1        # share of array expressions shifted periodically (cshift)
LOCATION = 0.15     # share of reductions that are an element at a maxloc/minloc
MERGE = 0.05        # share of intrinsics that are a merge of two values
MASKED = 0.5        # share of sums given a MASK=
CONSTRUCTOR = 0.08  # share of array operands of a constant length written as [a, b, ...]
CONCURRENT = 0.8    # share of the DO loops that may be (see _concurrent_ok) written DO CONCURRENT
CALLBACKS = 0.2     # share of programs with helpers called through a dummy procedure
ALONG = 0.5         # share of sums of a matrix that reduce a reduction along a dimension
CSHIFT2 = 0.25      # share of matrix expressions whose first operand is shifted (cshift)
SPREAD = 0.3        # share of matrix expressions whose last operand is a row or column spread
RESHAPE = 0.35      # share of matrix expressions whose first operand is a matrix reshaped
SCOPED = 0.06       # share of statements put in a BLOCK or an ASSOCIATE construct
SAVED = 0.25        # share of real scalar locals declared SAVE (each call sets them first)
DERIVED = 0.4       # share of programs whose head keeps some locals in a derived type
POINTERS = 0.25     # share of programs whose head swaps two buffers through POINTERs in a loop
COMPONENTS = 0.5    # share of the derived type's arrays that are allocatable components
DEFAULTS = 0.5      # share of derived types whose other components may have default values
BINDINGS = 0.5      # share of derived types through which the head calls some helpers
NAMED_OPTIONS = 0.3  # share of CHARACTER options passed as elements of a module's table
# From a stream of its own:
GOTOS = 0.25        # share of programs whose DO loops' EXIT and CYCLE are written as GOTO
ROWS = 0.4          # share of programs that pass rows of 2-D arrays (not contiguous) to calls
STRINGS = 0.3       # share of helpers taking a CHARACTER option, `mode`
GENERICS = 0.3      # share of programs calling helpers through a generic interface
ARRAY_FUNCTIONS = 0.35  # share of helper subroutines made functions returning their array output
ALLOCATABLE_RESULTS = 0.5  # share of those whose result is ALLOCATABLE
MODULE_ARRAYS = 0.25    # share of programs whose head keeps some local arrays in allocatable
                        # module variables
PACKED = 0.5        # share of masked sums in assignments and calls written sum(pack(a, mask))
MATMUL = 0.04       # share of array operands of a constant length that are matmul(m, v)
EOSHIFT = 0.4       # share of those shifts (CSHIFT) written as eoshift


# ---------------------------------------------------------------- expressions

@dataclass
class E:
    """A real expression: Fortran text, a static bound on |value|, its precedence
    (9 atom, 8 **, 7 * /, 6 + -) and the variables it reads."""
    text: str
    bound: float = 0.0
    prec: int = 9
    names: frozenset = frozenset()
    section: bool = False   # a variable or section of one (no temporary when passed)


@dataclass
class I:
    """An integer expression with its static range [lo, hi]; lin = (name or None, offset)
    when it is `name + offset` (sums of those are kept in that form: `n - 2`, not `n - 1 - 1`)."""
    text: str
    lo: int
    hi: int
    prec: int = 9
    names: frozenset = frozenset()
    lin: tuple | None = None


def lin(base: str | None, off: int, val: int) -> I:
    """base + off, base having the value val (None: the constant off)."""
    if base is None:
        return I(str(off), off, off, 9 if off >= 0 else 5, lin=(None, off))
    text = base if off == 0 else f"{base} {'+' if off > 0 else '-'} {abs(off)}"
    return I(text, val + off, val + off, 9 if off == 0 else 6, frozenset([base]), (base, off))


def fnum(v: float) -> str:
    """A real(8) literal."""
    s = repr(float(v))
    if "e" in s:
        m, x = s.split("e")
        s = f"{m}d{int(x)}"
    else:
        s += "d0"
    return f"({s})" if s.startswith("-") else s


def num(v: float) -> E:
    return E(fnum(v), abs(v))


def inum(v: int) -> I:
    return lin(None, v, 0)


def _wrap(x, prec: int, right: bool = False) -> str:
    return f"({x.text})" if x.prec < prec or (right and x.prec == prec) else x.text


def rbin(op: str, l: E, r: E, bound: float) -> E:
    p = {"+": 6, "-": 6, "*": 7, "/": 7, "**": 8}[op]
    lt = f"({l.text})" if l.prec < p or (op == "**" and l.prec <= p) else l.text
    return E(f"{lt} {op} {_wrap(r, p, True)}", bound, p, l.names | r.names)


def arith(op: str, l: E, r: E) -> E:
    """l + r, l - r or l * r, with its bound."""
    return rbin(op, l, r, l.bound * r.bound if op == "*" else l.bound + r.bound)


def add(l, r):
    return arith("+", l, r)


def scale(c: float, e: E) -> E:
    return arith("*", num(c), e)


def fcall(name: str, *args, bound: float) -> E:
    names = frozenset().union(*(a.names for a in args))
    return E(f"{name}({', '.join(a.text for a in args)})", bound, 9, names)


def ibin(op: str, l: I, r: I) -> I:
    if l.lin and r.lin and (l.lin[0] is None or r.lin[0] is None or op == "-" and l.lin[0] == r.lin[0]):
        sign = 1 if op == "+" else -1
        off = l.lin[1] + sign * r.lin[1]
        if op == "-" and l.lin[0] == r.lin[0]:
            return lin(None, off, 0)
        if l.lin[0] is not None or sign > 0:
            base = l.lin[0] or r.lin[0]
            val = (l.lo - l.lin[1]) if l.lin[0] else (r.lo - r.lin[1])
            return lin(base, off, val)
    if op == "+":
        lo, hi = l.lo + r.lo, l.hi + r.hi
    elif op == "-":
        lo, hi = l.lo - r.hi, l.hi - r.lo
    else:
        raise ValueError(op)
    return I(f"{_wrap(l, 6)} {op} {_wrap(r, 6, True)}", lo, hi, 6, l.names | r.names)


def iadd(x: I, c: int) -> I:
    if c == 0:
        return x
    if x.lin:
        return lin(x.lin[0], x.lin[1] + c, x.lo - x.lin[1])
    return ibin("+" if c > 0 else "-", x, inum(abs(c)))


def cond(text: str, names) -> E:
    """A logical expression (prec 4: comparisons and above need no parentheses)."""
    return E(text, 0.0, 4, frozenset(names))


# ----------------------------------------------------------------- statements

class Stmt:
    """A statement: its first line, and for a construct its parts (each a line such as
    `else` or `case (1)`, None for the first body, and a statement list) and closing line.
    kind: simple do while if select where.  pinned: the minimizer deletes it only with
    its construct (a DO WHILE counter's increment, the setting of an intent(out) dummy).
    defines: the local variable it gives its first value, which the minimizer deletes only
    once nothing else uses that variable."""

    def __init__(self, head: str, parts=None, tail=None, kind="simple", reads=(), pinned=False):
        self.head, self.parts, self.tail, self.kind = head, parts or [], tail, kind
        self.directive = None  # `!$AD ...` comment rendered on the line before the statement
        self.defines = None
        self.reads = set(reads)
        for _, body in self.parts:
            for s in body:
                self.reads |= s.reads
        self.pinned = pinned


def simple(line: str, *exprs) -> Stmt:
    reads = set()
    for e in exprs:
        reads |= e.names
    return Stmt(line, reads=reads)


def defining(s: Stmt) -> Stmt:
    """s gives a new local variable (the target of its assignment) its first value."""
    s.defines = s.head.split("=", 1)[0].strip()
    return s


def pinned(s: Stmt) -> Stmt:
    """s is kept by the minimizer: it sets an intent(out) dummy or the function result,
    which must be set."""
    s.pinned = True
    return s


def walk(stmts):
    for s in stmts:
        yield s
        for _, body in s.parts:
            yield from walk(body)


def lines(stmts):
    """The lines of stmts that may name variables and procedures: first lines and the
    `else if (...)` lines of constructs."""
    for s in walk(stmts):
        yield s.head
        yield from (line for line, _ in s.parts if line)


@dataclass
class Routine:
    name: str
    kind: str               # subroutine | function
    params: list            # dummy argument names, in order
    decls: dict             # name -> declaration, for dummies and every possible local
    body: list
    result: str | None = None

    def render(self, out: list, ind: str):
        args = ", ".join(self.params)
        res = f" result({self.result})" if self.result else ""
        out.append(f"{ind}{self.kind} {self.name}({args}){res}")
        body = []
        render_block(self.body, ind + "  ", body)
        used = set(re.findall(r"\b\w+\b", "\n".join(body)))
        if self.name == HEAD_NAME:
            out.append(f"{ind}  use {MODULE}")
        out.append(f"{ind}  implicit none")
        for name, decl in self.decls.items():
            if name in self.params or name == self.result or name in used:
                out.append(f"{ind}  {decl}")
        out += body
        out.append(f"{ind}end {self.kind} {self.name}")


@dataclass
class Program:
    seed: int
    module_decls: list
    helpers: list           # Routine, module procedures
    head: Routine
    spec: list              # the adgen-test block's lines, without the comment marks
    comment: str = ""

    def routines(self):
        return self.helpers + [self.head]


def _continued(line: str) -> list:
    """A statement longer than MAX_LINE split at spaces (between tokens) with `&`."""
    ind = line[:len(line) - len(line.lstrip())]
    out = []
    while len(line) > MAX_LINE:
        cut = line.rfind(" ", len(ind) + 10, MAX_LINE)
        if cut < 0:
            break
        out.append(line[:cut] + " &")
        line = ind + "    & " + line[cut + 1:]
    return out + [line]


def render_block(stmts, ind: str, out: list):
    for s in stmts:
        if s.directive:
            out.append(f"{ind}!$AD {s.directive}")
        out += _continued(ind + s.head)
        for line, body in s.parts:
            if line is not None:
                out += _continued(ind + line)
            render_block(body, ind + "  ", out)
        if s.tail:
            out.append(ind + s.tail)


def render(prog: Program) -> str:
    out = []
    if prog.comment:
        out.append(f"! {prog.comment}")
    out.append("! adgen-test")
    out += [f"! {line}" for line in prog.spec] + ["!"]
    out.append(f"module {MODULE}")
    out.append("  implicit none")
    out += [f"  {d}" for d in prog.module_decls]
    if prog.helpers:
        out.append("contains")
        for h in prog.helpers:
            out.append("")
            h.render(out, "  ")
    out.append(f"end module {MODULE}")
    out.append("")
    prog.head.render(out, "")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ variables

@dataclass
class Dim:
    lo: I       # bounds as the declaration writes them, with their concrete values
    hi: I

    @property
    def extent(self) -> int:
        return self.hi.lo - self.lo.lo + 1


@dataclass
class Var:
    name: str
    cls: str                    # real | arr | int
    bound: float = CAP          # real, arr: |value| bound
    dims: list = field(default_factory=list)
    writable: bool = True
    lo: int = 0                 # int: range
    hi: int = 0
    index_ok: bool = True       # int: may index (a loop or counter variable)
    module: bool = False        # a module variable (never passed as an output actual)
    ready: bool = True          # False until set: an intent(out) dummy before the prologue


OMITTED = E("")   # an OPTIONAL argument a call leaves out


@dataclass
class Helper:
    name: str
    m: int                      # value of its size argument m at every call
    roles: list                 # (role, dummy name): m, in, in0 (lower bound 0), out, inout, sin, sout, sinout
    function: bool
    array_fn: bool = False      # a function returning its output o (role out) as its result


# ------------------------------------------------------------------ generator

class FGen:
    def __init__(self, seed: int, max_depth: int = 3):
        self.seed = seed
        self.r = random.Random(seed)
        # directives come from their own stream: a seed's program is the same with them
        self.rd = random.Random(seed * 2654435761 + 97)
        # so do the ways of declaring a local array (allocatable or not)
        self.rw = random.Random(seed * 2246822519 + 13)
        # and the DO loops written DO CONCURRENT
        self.rc = random.Random(seed * 3266489917 + 29)
        # and the BLOCK and ASSOCIATE constructs around statements
        self.ra = random.Random(seed * 1597334677 + 41)
        # and the SAVE attributes of locals
        self.rs = random.Random(seed * 2654435789 + 57)
        # and the calls made through a dummy procedure (with_callback)
        self.rv = random.Random(seed * 3266489917 + 71)
        # and the locals kept in a derived type (with_derived_type)
        self.rt = random.Random(seed * 2246822519 + 83)
        # and the buffers swapped through pointers (with_double_buffer)
        self.rp = random.Random(seed * 1073741789 + 89)
        # and the arrays of the derived type that are allocatable components
        self.rk = random.Random(seed * 2147483587 + 97)
        # and whether calls take rows of 2-D arrays (copied in and back by the callers)
        self.rows_as_actuals = random.Random(seed * 2147483587 + 103).random() < ROWS
        # and which helpers return their array output as a function's result
        self.rf = random.Random(seed * 2147483587 + 107)
        # and which helpers take a CHARACTER option, the literals given and compared
        self.rq = random.Random(seed * 2147483587 + 109)
        self.rm = random.Random(seed * 2147483587 + 131)
        self.re = random.Random(seed * 2147483587 + 137)
        # and which array results are ALLOCATABLE, and the head's arrays kept in module
        # variables (with_module_arrays)
        self.rr = random.Random(seed * 2147483587 + 151)
        self.ru = random.Random(seed * 2147483587 + 157)
        # and the default values of the derived type's components (with_derived_type)
        self.rz = random.Random(seed * 2147483587 + 163)
        # and the helpers the head calls through type-bound procedures (with_bindings)
        self.rb = random.Random(seed * 2147483587 + 167)
        # and the options passed as elements of a CHARACTER array (option_table)
        self.rn = random.Random(seed * 2147483587 + 173)
        self.option_table = None    # None, or how the module declares fz_options
        self.max_depth = max_depth
        self.helpers: list[Helper] = []
        self.module_vars: list[Var] = []

    @contextlib.contextmanager
    def drawing_from(self, stream):
        """What is generated inside draws from stream instead of the main one (whose draws
        then stay those of the program without it)."""
        main, self.r = self.r, stream
        try:
            yield
        finally:
            self.r = main

    @contextlib.contextmanager
    def calls_barred(self, barred=True):
        """No call of a helper in what is generated inside (when barred)."""
        saved = self.no_calls
        self.no_calls += barred
        try:
            yield
        finally:
            self.no_calls = saved

    # ------------------------------------------------------------- scopes
    def syms(self, cls):
        for scope in reversed(self.scopes):
            for v in reversed(scope):
                if v.cls == cls and v.ready:
                    yield v

    def declare(self, v: Var, decl: str) -> Var:
        self.scopes[-1].append(v)
        self.decls.setdefault(v.name, decl)
        return v

    def fresh(self, prefix: str) -> str:
        self.counter[prefix] = self.counter.get(prefix, 0) + 1
        return f"{prefix}{self.counter[prefix]}"

    def lengths(self) -> list:
        """Integer expressions usable as section lengths, with their values."""
        out = []
        for v in self.dims:
            x = lin(v.name, 0, v.lo)
            out += [x] + [iadd(x, -k) for k in (1, 2) if v.lo - k >= 2]
        return out + [inum(2), inum(3)]

    # ------------------------------------------------------------ indices
    def index(self, d: Dim) -> I:
        """An integer expression whose range lies inside the dimension d."""
        r = self.r
        lb, ub = d.lo.lo, d.hi.lo
        cands = []
        for a in self.syms("int"):
            if not a.index_ok:
                continue
            x = I(a.name, a.lo, a.hi, names=frozenset([a.name]))
            for c in range(lb - a.lo, ub - a.hi + 1):
                if abs(c) <= 2:
                    cands.append(iadd(x, c))
            if lb <= lb + ub - a.hi and lb + ub - a.lo <= ub:    # reflected: n + 1 - i
                cands.append(ibin("-", iadd(d.hi, lb), x))
            if a.lo >= 0:
                ext = ibin("-", iadd(d.hi, 1), d.lo) if d.lo.lo != 0 else iadd(d.hi, 1)
                if d.lo.lo == 1:
                    ext = d.hi
                if ext.lo > 0:
                    cands.append(iadd(I(f"mod({a.name}, {ext.text})", 0, min(a.hi, ext.lo - 1),
                                        names=x.names | ext.names), lb))
        if not cands or r.random() < 0.25:
            k = r.randint(0, d.extent - 1)
            if r.random() < 0.5:
                return iadd(d.hi, -(d.extent - 1 - k)) if d.hi.names else inum(lb + k)
            return inum(lb + k)
        return r.choice(cands)

    def element(self, v: Var) -> E:
        idx = [self.index(d) for d in v.dims]
        names = frozenset([v.name]).union(*(i.names for i in idx))
        return E(f"{v.name}({', '.join(i.text for i in idx)})", v.bound, 9, names)

    def section(self, v: Var, L: I, for_actual=False):
        """A 1-D run of L elements of v (a section along its first dimension, or for a
        2-D array a column, or a row: not in actual arguments unless the program passes
        rows), or None."""
        r = self.r
        rows = not for_actual or (self.rows_as_actuals and for_actual != "no rows")
        dims = [0] if not rows or len(v.dims) == 1 else [0, 1]
        along = r.choice(dims)
        if for_actual and rows and len(v.dims) == 2 and r.random() < 0.5:
            along = 1       # the program passes rows: mostly

        d = v.dims[along]
        if d.extent < L.lo:
            return None
        spare = d.extent - L.lo
        if spare == 0 and r.random() < 0.5:
            rng = ":" if len(v.dims) > 1 or r.random() < 0.5 else f"{d.lo.text}:{d.hi.text}"
            if len(v.dims) == 1 and rng == ":" and r.random() < 0.7:
                return E(v.name, v.bound, 9, frozenset([v.name]), True)
        else:
            k = r.randint(0, spare)
            if r.random() < 0.5 or not L.names:
                start = iadd(d.lo, k)
                end = iadd(ibin("+", start, L), -1) if L.names else iadd(d.lo, k + L.lo - 1)
            else:   # counted from the upper end: x(n-2:n)
                end = iadd(d.hi, -(spare - k))
                start = iadd(ibin("-", end, L), 1)
            rng = f"{start.text}:{end.text}"
        subs = [rng]
        names = {v.name} | set(L.names)
        if len(v.dims) > 1:
            fixed = self.index(v.dims[1 - along])
            subs.insert(1 - along, fixed.text)
            names |= fixed.names
        for part in re.findall(r"[a-z_]\w*", rng):
            names.add(part)
        return E(f"{v.name}({', '.join(subs)})", v.bound, 9, frozenset(names), True)

    # ---------------------------------------------------- real expressions
    def fit(self, e: E, cap: float = CAP) -> E:
        """e scaled or squashed below cap."""
        if e.bound <= cap:
            return e
        if e.bound <= 8 * cap:
            c = nice_down(cap / e.bound)
            return E(scale(c, e).text, c * e.bound, 7, e.names)
        c = nice_down(2.0 / e.bound) if e.bound < 200 else 2.0 / e.bound
        inner = scale(c, e) if c >= 0.01 else rbin("/", e, num(round(e.bound / 2.0, 1)), 2.0)
        return scale(cap, fcall("tanh", inner, bound=1.0))

    def real_vars(self):
        return [v for v in self.syms("real")]

    def rleaf(self) -> E:
        r = self.r
        c = r.random()
        scal = self.real_vars()
        arrs = list(self.syms("arr"))
        if scal and c < 0.35:
            v = r.choice(scal)
            return E(v.name, v.bound, 9, frozenset([v.name]))
        if arrs and c < 0.8:
            return self.element(r.choice(arrs))
        ints = [v for v in self.syms("int") if v.index_ok]
        if ints and c < 0.88:
            v = r.choice(ints)
            bound = 0.1 * max(abs(v.lo), abs(v.hi))
            return E(f"0.1d0 * dble({v.name})", bound, 7, frozenset([v.name]))
        if c < 0.94:
            k = r.randint(1, 3)
            return E(f"fz_coef({k})", 0.5, 9)
        return num(r.choice(NICE) * r.choice((1, -1)))

    def rexpr(self, depth: int = 2) -> E:
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.rleaf()
        c = r.random()
        if c < 0.35:
            a, b = self.fit(self.rexpr(depth - 1), SQUASH), self.fit(self.rexpr(depth - 1), SQUASH)
            return arith(r.choice("+-*"), a, b)
        if c < 0.75:
            return self.intrinsic(self.rexpr(depth - 1), depth)
        if c < 0.87:
            red = self.reduction()
            if red is not None:
                return red
        if c < 0.95 and self.no_calls == 0:
            call = self.function_call()
            if call is not None:
                return call
        return self.rleaf()

    def intrinsic(self, u: E, depth: int) -> E:
        """A math function of u, kept inside its domain and away from singular points."""
        r = self.r
        b = u.bound
        if self.rw.random() < MERGE:
            v = self.rexpr(depth - 1)
            c = self.condition()
            return E(f"merge({u.text}, {v.text}, {c.text})", max(b, v.bound), 9,
                     u.names | v.names | c.names)
        k = r.randrange(19)
        if k == 0:
            return fcall("sin", u, bound=1.0)
        if k == 1:
            return fcall("cos", u, bound=1.0)
        if k == 2:
            return fcall("tanh", u, bound=1.0)
        if k == 3:
            return fcall("atan", u, bound=1.6)
        if k == 4:
            if b <= 2.5:
                return fcall("exp", u, bound=2.72 ** b)
            return fcall("exp", fcall("tanh", u, bound=1.0), bound=2.72)
        if k == 5:
            c = r.choice((0.5, 1.0, 2.0))
            u = self.fit(u, SQUASH)
            return fcall("sqrt", add(num(c), rbin("**", u, E("2"), u.bound ** 2)),
                         bound=(c + u.bound ** 2) ** 0.5)
        if k == 6:
            u = self.fit(u, SQUASH)
            return fcall("log", add(num(1.0), rbin("**", u, E("2"), u.bound ** 2)),
                         bound=2 * max(1.0, u.bound))
        if k == 7:
            return fcall("log10", add(num(1.5), fcall("sin", u, bound=1.0)), bound=0.4)
        if k == 8:
            p = r.choice((0.5, 0.75, 1.5))
            u = self.fit(u, 3.0)
            base = add(num(1.0), rbin("**", u, E("2"), u.bound ** 2))
            return rbin("**", base, num(p), (1 + u.bound ** 2) ** p)
        if k == 9:
            v = self.fit(self.rexpr(depth - 1), SQUASH)
            return fcall("atan2", u, add(num(1.0), rbin("**", v, E("2"), v.bound ** 2)), bound=3.2)
        if k == 10:
            v = self.rexpr(depth - 1)
            return rbin("/", u, add(num(2.0), fcall("sin", v, bound=1.0)), b)
        if k in (11, 12):
            v = self.rexpr(depth - 1)
            return fcall(r.choice(("min", "max")), u, v, bound=max(b, v.bound))
        if k == 13:
            t = scale(0.5, fcall("tanh", u, bound=1.0))
            return fcall(r.choice(("asin", "acos")), t, bound=2.1)
        if k == 14:
            return fcall(r.choice(("sinh", "cosh")), fcall("tanh", u, bound=1.0), bound=1.6)
        if k == 15:
            return fcall("tan", scale(0.5, fcall("tanh", u, bound=1.0)), bound=0.55)
        if k == 16:
            u = self.fit(u, 3.0)
            p = r.choice((2, 2, 3))
            return rbin("**", u, E(str(p)), u.bound ** p)
        if k == 17:
            v = self.rexpr(depth - 1)
            expo = add(num(1.0), scale(0.5, fcall("tanh", v, bound=1.0)))
            return rbin("**", add(num(1.5), fcall("tanh", u, bound=1.0)), expo, 2.5 ** 1.5)
        if r.random() < 0.5:
            return fcall("abs", u, bound=b)
        return fcall("sin", u, bound=1.0)

    def reduction(self):
        """sum / dot_product / maxval / minval / product over sections, or None."""
        r = self.r
        L = r.choice(self.lengths())
        if self.rw.random() < LOCATION:
            at = self.location(L)
            if at is not None:
                return at
        a = self.aexpr(L, 1)
        if a is None:
            return None
        k = r.randrange(6)
        if k == 0 and self.rw.random() < MASKED:
            m = self.aexpr(L, 0)
            if m is not None:
                thr = fnum(round(self.rw.uniform(-0.5, 0.5) * min(1.0, m.bound), 2))
                return E(f"sum({a.text}, mask={_wrap(m, 6)} > {thr})", L.hi * a.bound, 9,
                         a.names | m.names)
        if k == 0:
            return fcall("sum", a, bound=L.hi * a.bound)
        if k == 1:
            b = self.aexpr(L, 0)
            if b is None:
                return None
            return fcall("dot_product", a, b, bound=L.hi * a.bound * b.bound)
        if k in (2, 3):
            return fcall(("maxval", "minval")[k - 2], a, bound=a.bound)
        if k == 4:
            t = add(num(1.0), scale(0.25, fcall("tanh", a, bound=1.0)))
            return fcall("product", t, bound=1.25 ** L.hi)
        twod = [v for v in self.syms("arr") if len(v.dims) == 2]
        if twod:
            v = r.choice(twod)
            whole = E(v.name, v.bound, 9, frozenset([v.name]))
            if self.rc.random() < ALONG:
                return self.reduction_along(v, whole)
            return fcall("sum", whole, bound=v.dims[0].extent * v.dims[1].extent * v.bound)
        return fcall("sum", a, bound=L.hi * a.bound)

    def reduction_along(self, v: Var, whole: E) -> E:
        """A reduction of the reduction of a matrix along one of its dimensions:
        sum(maxval(v, dim=2)), maxval(sum(v, 1)), ..."""
        rc = self.rc
        d = rc.choice((1, 2))
        along, other = v.dims[d - 1].extent, v.dims[2 - d].extent
        inner = rc.choice(("sum", "maxval", "minval", "product"))
        dim = f"dim={d}" if rc.random() < 0.5 else str(d)
        if inner == "product":
            t = add(num(1.0), scale(0.25, fcall("tanh", whole, bound=1.0)))
            part = E(f"product({t.text}, {dim})", 1.25 ** along, 9, whole.names)
        else:
            part = E(f"{inner}({whole.text}, {dim})",
                     along * v.bound if inner == "sum" else v.bound, 9, whole.names)
        if rc.random() < 0.5:
            return fcall("sum", part, bound=other * part.bound)
        return fcall(rc.choice(("maxval", "minval")), part, bound=part.bound)

    def location(self, L: I):
        """The element of a 1-D array at the maxloc or minloc of a run of it, or None."""
        arrs = [v for v in self.syms("arr") if len(v.dims) == 1]
        if not arrs:
            return None
        v = self.rw.choice(arrs)
        sec = self.section(v, L)
        if sec is None:
            return None
        m = re.fullmatch(r"\w+\((.+):(.+)\)", sec.text)
        start = m.group(1) if m else v.dims[0].lo.text
        fn = self.rw.choice(("maxloc", "minloc"))
        return E(f"{v.name}({start} - 1 + {fn}({sec.text}, 1))", v.bound, 9, sec.names)

    def aexpr(self, L: I, depth: int = 2):
        """An array expression of L elements (at least one section in it), or None."""
        r = self.r
        arrs = [v for v in self.syms("arr") if max(d.extent for d in v.dims) >= L.lo]
        if not arrs:
            return None
        if L.lo == L.hi and self.rm.random() < MATMUL:
            product = self.matmul(L)
            if product is not None:
                return product
        if not L.names and L.lo <= 4 and self.rw.random() < CONSTRUCTOR:
            items = [self.fit(self.rleaf()) for _ in range(L.lo)]
            # half the time a section in place of some items (drawn from a stream of their
            # own, so that the rest of the program stays as it was)
            ra = random.Random(self.seed * 2147483587 + 149 + len(self.decls) + L.lo)
            part = ra.randint(1, L.lo - 1) if L.lo >= 2 and ra.random() < 0.5 else 0
            with self.drawing_from(ra):
                sec = self.section(ra.choice(arrs), lin(None, part, part)) if part else None
            if sec is not None:
                at = ra.randint(0, L.lo - part)
                items[at:at + part] = [self.fit(sec)]
            return E("[" + ", ".join(it.text for it in items) + "]",
                     max(it.bound for it in items), 9,
                     frozenset().union(*(it.names for it in items)))
        if depth <= 0 or r.random() < 0.35:
            for _ in range(4):
                s = self.section(r.choice(arrs), L)
                if s is not None:
                    return s
            return None
        c = r.random()
        a = self.aexpr(L, depth - 1)
        if a is None:
            return None
        a = self.fit(a, SQUASH)
        if c < 0.4:
            scalar = r.random() >= 0.6
            other = self.rexpr(1) if scalar else self.aexpr(L, depth - 1)
            if other is None:
                return a
            other = self.fit(other, SQUASH)
            op = r.choice("+-*")
            if scalar and self.rw.random() < SCALAR_FIRST:
                return arith(op, other, a)  # the shape comes from an operand further on
            if self.rw.random() < CSHIFT:
                # periodic neighbours: cshift(a, k) with k of either sign, beyond L too
                k = self.rw.choice((-1, 1, 2, -3, L.lo + 1))
                # or end-off (eoshift: zeros shifted in), of operands that call nothing
                shift = "eoshift" if "fz_" not in a.text and \
                    self.re.random() < EOSHIFT else "cshift"
                return arith(op, fcall(shift, a, E(str(k)), bound=a.bound), other)
            return arith(op, a, other)
        # elemental intrinsics only (no reductions or calls inside)
        with self.calls_barred():
            k = r.randrange(6)
            if k == 0:
                return fcall(r.choice(("sin", "cos", "tanh")), a, bound=1.0)
            if k == 1:
                return fcall("exp", fcall("tanh", a, bound=1.0), bound=2.72)
            if k == 2:
                return fcall("sqrt", add(num(1.0), rbin("**", a, E("2"), a.bound ** 2)),
                             bound=(1 + a.bound ** 2) ** 0.5)
            if k == 3:
                return fcall("log", add(num(1.0), rbin("**", a, E("2"), a.bound ** 2)),
                             bound=2 * max(1.0, a.bound))
            if k == 4:
                u = self.fit(a, 3.0)
                return rbin("**", u, E("2"), u.bound ** 2)
            return scale(r.choice((0.5, 0.25)), a)

    def matmul(self, L: I):
        """matmul(m, v) or matmul(transpose(m), v) of L elements, m a matrix and v a run of
        another array's elements, or None. Drawn from a stream of its own."""
        rm = self.rm
        picks = [(v, t) for v in self.syms("arr") if len(v.dims) == 2
                 for t in (False, True) if v.dims[1 if t else 0].extent == L.lo]
        if not picks:
            return None
        m, transposed = rm.choice(picks)
        inner = m.dims[0 if transposed else 1].extent
        with self.drawing_from(rm):
            v = self.section(rm.choice(list(self.syms("arr"))), lin(None, inner, inner))
        if v is None:
            return None
        v = self.fit(v, SQUASH)
        first = f"transpose({m.name})" if transposed else m.name
        return E(f"matmul({first}, {v.text})", inner * m.bound * v.bound, 9,
                 frozenset([m.name]) | v.names)

    def function_call(self):
        funcs = [h for h in self.helpers if h.function and h.name != self.fname]
        if not funcs:
            return None
        return self.actuals(self.r.choice(funcs), as_expr=True)

    def option_text(self, lit):
        """The literal lit, or now and then a CHARACTER expression of the same value (a
        concatenation, achar, repeat)."""
        k = self.rq.randint(1, len(lit) - 1)
        return self.rq.choice((f"'{lit}'", f"'{lit}'", f"'{lit[:k]}' // '{lit[k:]}'",
                               f"achar({ord(lit[0])}) // '{lit[1:]}'",
                               f"repeat('{lit[0]}', 1) // '{lit[1:]}'"))

    def condition(self) -> E:
        r = self.r
        options = list(self.syms("str"))
        if options and self.rq.random() < 0.6:
            # the CHARACTER option against a literal (blank-padded: 'slow ' is 'slow')
            v = self.rq.choice(options)
            op = self.rq.choice(("==", "/=", ".eq."))
            lit = self.rq.choice(_OPTIONS)
            return cond(f"{self.rq.choice((v.name, f'trim({v.name})'))} {op} "
                        f"{self.option_text(lit)}", [v.name])
        with self.calls_barred(r.random() < 0.8):    # calls in conditions now and then
            for _ in range(4):
                e = self.rexpr(1)
                if e.names:
                    break
        thr = fnum(round(r.uniform(-0.5, 0.5) * min(1.0, e.bound), 2))
        c = cond(f"{_wrap(e, 6)} {r.choice(('<', '>', '<=', '>='))} {thr}", e.names)
        loops = [v for v in self.syms("int") if v.index_ok and v.hi > v.lo]
        if r.random() < 0.25 and loops:
            v = r.choice(loops)
            other = cond(f"mod({v.name}, 2) == {r.randint(0, 1)}", [v.name])
            op = r.choice((".and.", ".or."))
            return cond(f"{c.text} {op} {other.text}", c.names | other.names)
        return c

    # ----------------------------------------------------------- statements
    def assign(self, target: E, value: E) -> Stmt:
        return simple(f"{target.text} = {value.text}", value, E("", names=target.names - {target.text}))

    def st_scalar(self, depth):
        r = self.r
        writable = [v for v in self.real_vars() if v.writable]
        e = self.fit(self.rexpr(2))
        if writable and r.random() < 0.6:
            v = r.choice(writable)
            if r.random() < 0.5:    # relax towards the new value: v depends on its old value
                e = add(scale(0.5, E(v.name, v.bound, 9, frozenset([v.name]))), scale(0.5, e))
            return [simple(f"{v.name} = {e.text}", e)]
        name = self.fresh("v")
        self.declare(Var(name, "real"), f"real(8) :: {name}")
        return [defining(simple(f"{name} = {e.text}", e))]

    def st_element(self, depth):
        arrs = [v for v in self.syms("arr") if v.writable]
        if not arrs:
            return None
        v = self.r.choice(arrs)
        tgt = self.element(v)
        e = self.fit(self.rexpr(2))
        return [simple(f"{tgt.text} = {e.text}", e, E("", names=tgt.names - {v.name}))]

    def writable_run(self):
        """A writable array and a section length it can take, or None."""
        arrs = [v for v in self.syms("arr") if v.writable]
        if not arrs:
            return None
        v = self.r.choice(arrs)
        return v, self.r.choice([x for x in self.lengths() if x.lo <= max(d.extent for d in v.dims)])

    def st_section(self, depth):
        picked = self.writable_run()
        if picked is None:
            return None
        v, L = picked
        tgt = self.section(v, L)
        e = self.aexpr(L)
        if tgt is None or e is None:
            return None
        e = self.fit(e)
        return [simple(f"{tgt.text} = {e.text}", e, E("", names=tgt.names - {v.name}))]

    def st_local_array(self, depth):
        """A new local array, written in full: automatic (bounds from the dummies),
        fixed-size, with a lower bound other than 1, or 2-D."""
        r = self.r
        name = self.fresh("w")
        L = r.choice([x for x in self.lengths() if x.names] or self.lengths())
        lo = r.choice((1, 1, 0, -1, 2))
        if r.random() < 0.3:
            hi = iadd(L, lo - 1)
            dims = [Dim(inum(lo), hi)]
        else:
            dims = [Dim(inum(lo), iadd(L, lo - 1))]
        twod = [v for v in self.syms("arr") if len(v.dims) == 2]
        if twod and r.random() < 0.35:     # same shape as a 2-D array in scope
            other = r.choice(twod)
            e = self.fit(self.a2expr(other))
            dims = [Dim(inum(1), inum(other.dims[0].extent)) if r.random() < 0.3 else other.dims[0],
                    other.dims[1]]
            name = self.fresh("q")
        elif self.loops and r.random() < 0.6:
            # in a loop, a cheap refill c*s + d*t of sections read nonlinearly after it:
            # scratch that adgen may recompute instead of storing
            parts = [self.aexpr(L, 0) for _ in range(2)]
            if any(p is None for p in parts):
                return None
            e = add(*[scale(min(nice_down(CAP / 2 / p.bound), 1.5) if p.bound > 0 else 1.0, p)
                      for p in parts])
            e = self.fit(e)
            shape = ", ".join(d.hi.text if d.lo.lo == 1 else f"{d.lo.text}:{d.hi.text}"
                              for d in dims)
            v = self.declare(Var(name, "arr", dims=dims), f"real(8) :: {name}({shape})")
            w = E(v.name, e.bound, 9, frozenset([v.name]))
            square = fcall("sum", rbin("**", w, E("2"), e.bound ** 2), bound=e.bound ** 2)
            return [self.maybe_allocatable(v, shape, defining(simple(f"{v.name} = {e.text}", e))),
                    self.sink_fold(scale(0.1, square))]
        else:
            e = self.aexpr(L)
            if e is None:
                return None
            e = self.fit(e)
        shape = ", ".join(d.hi.text if d.lo.lo == 1 else f"{d.lo.text}:{d.hi.text}" for d in dims)
        v = self.declare(Var(name, "arr", dims=dims), f"real(8) :: {name}({shape})")
        return [self.maybe_allocatable(v, shape, defining(simple(f"{v.name} = {e.text}", e)))]

    def maybe_allocatable(self, v: Var, shape: str, first: Stmt) -> Stmt:
        """Now and then (from a stream of its own) the local array v allocatable instead,
        allocated by the statement giving it its first value, unless it is already (in a
        loop), or by that assignment itself. The allocation goes on the same line, so that
        the minimizer keeps the two together."""
        if self.rw.random() < ALLOCATABLE:
            deferred = ", ".join(":" for _ in v.dims)
            self.decls[v.name] = f"real(8), allocatable :: {v.name}({deferred})"
            # outside loops, with lower bounds 1, half the time allocated by the assignment
            # itself (Fortran 2003); no value of it reads a bare array, whose lower bounds
            # it would take
            auto = random.Random(self.seed * 2147483587 + 137 + len(self.decls)).random()
            if auto < 0.5 and not self.loops and all(d.lo.lo == 1 for d in v.dims) and \
                    not re.fullmatch(r"\w+", first.head.split(" = ", 1)[1]):
                first.defines = v.name
                return first
            first.head = (f"if (.not. allocated({v.name})) allocate({v.name}({shape})); "
                          + first.head)
            first.defines = v.name
        return first

    def a2expr(self, like: Var) -> E:
        """A 2-D array expression of like's shape."""
        r = self.r
        shape = [d.extent for d in like.dims]
        same = [v for v in self.syms("arr") if [d.extent for d in v.dims] == shape]
        terms = [E(v.name, v.bound, 9, frozenset([v.name])) for v in r.sample(same, min(2, len(same)))]
        if self.rc.random() < CSHIFT2:
            # shifted periodically along one dimension
            t = terms[0]
            d = self.rc.choice((1, 2))
            shift = self.rc.choice((-1, 1, 2, -shape[d - 1] - 1))
            dim = f"dim={d}" if self.rc.random() < 0.5 else str(d)
            terms[0] = E(f"cshift({t.text}, {shift}, {dim})", t.bound, 9, t.names)
        if self.rc.random() < SPREAD:
            terms[-1] = self.spread_of(like, self.rc.choice(same))
        sized = [v for v in self.syms("arr") if len(v.dims) == 2 and
                 v.dims[0].extent * v.dims[1].extent == shape[0] * shape[1]]
        if sized and self.rc.random() < RESHAPE:
            v = self.rc.choice(sized)
            extents = [d.hi.text if d.lo.lo == 1 else f"{d.hi.text} - ({d.lo.text}) + 1"
                       for d in like.dims]
            names = frozenset([v.name]).union(*(d.hi.names | d.lo.names for d in like.dims))
            terms[0] = E(f"reshape({v.name}, [{', '.join(extents)}])", v.bound, 9, names)
        e = terms[0]
        if len(terms) > 1:
            e = add(scale(0.5, e), scale(0.5, fcall(r.choice(("tanh", "sin", "cos")), terms[1], bound=1.0)))
        if r.random() < 0.5:
            e = add(e, scale(0.25, fcall("tanh", self.rexpr(1), bound=1.0)))
        return e

    def spread_of(self, like: Var, v: Var) -> E:
        """A row or a column of v (of like's shape) spread back to like's shape."""
        rc = self.rc
        d = rc.choice((1, 2))               # the dimension the copies run along
        fixed = like.dims[d - 1]
        k = inum(fixed.lo.lo + rc.randint(0, fixed.extent - 1))
        subs = [k.text, ":"] if d == 1 else [":", k.text]
        copies = fixed.hi.text if fixed.lo.lo == 1 else f"{fixed.hi.text} - ({fixed.lo.text}) + 1"
        rest = f"dim={d}, ncopies={copies}" if rc.random() < 0.5 else f"{d}, {copies}"
        return E(f"spread({v.name}({', '.join(subs)}), {rest})", v.bound, 9,
                 frozenset([v.name]) | fixed.hi.names | fixed.lo.names)

    def st_2d(self, depth):
        twod = [v for v in self.syms("arr") if len(v.dims) == 2 and v.writable]
        if not twod:
            return None
        v = self.r.choice(twod)
        e = self.fit(self.a2expr(v))
        return [simple(f"{v.name} = {e.text}", e)]

    def loop_var(self, depth):
        name = LOOP_VARS[min(len(self.loops), len(LOOP_VARS) - 1)]
        if any(v.name == name for v in self.syms("int")):
            name = self.fresh("i")
        self.decls.setdefault(name, f"integer :: {name}")
        return name

    def trip_end(self, d: Dim, pre: list) -> I:
        """The end of a loop over d: its upper bound, one less, or a count computed from
        the data (a new integer variable set before the loop)."""
        r = self.r
        c = r.random()
        if c < 0.3 and d.extent >= 2:
            k = self.fresh("kk")
            self.decls[k] = f"integer :: {k}"
            e = self.fit(self.rexpr(1))
            amp = max(1, min(d.extent - 1, 4))
            t = f"int({fnum(amp / 2)} * (1.0d0 + tanh({e.text})))"
            pre.append(defining(simple(f"{k} = min({d.hi.text}, {d.lo.text} + {t})", e, E("", names=d.hi.names))))
            return I(k, d.lo.lo, min(d.hi.lo, d.lo.lo + amp), names=frozenset([k]))
        if c < 0.5 and d.extent >= 2:
            return iadd(d.hi, -1)
        return d.hi

    def loop_dim(self, depth):
        """A dimension of an array in scope for a loop to run over, or None (too deep)."""
        arrs = list(self.syms("arr"))
        if depth >= self.max_depth or not arrs:
            return None
        return self.r.choice(self.r.choice(arrs).dims)

    def st_do(self, depth):
        r = self.r
        d = self.loop_dim(depth)
        if d is None:
            return None
        pre = []
        end = self.trip_end(d, pre)
        start = d.lo if r.random() < 0.7 or d.extent < 3 else iadd(d.lo, 1)
        step = r.choice((1, 1, 1, 2, -1))
        name = self.loop_var(depth)
        if step > 0:
            header = f"do {name} = {start.text}, {end.text}" + (f", {step}" if step > 1 else "")
            lo, hi = start.lo, end.hi
        else:
            header = f"do {name} = {end.text}, {start.text}, -1"
            lo, hi = start.lo, end.hi
        label = None
        if depth == 0 and r.random() < 0.4:
            label = self.fresh("outer")
            header = f"{label}: {header}"
        ivar = Var(name, "int", lo=lo, hi=hi)
        self.scopes.append([ivar])
        self.loops.append(("do", label))
        body = self.block(depth + 1, r.randint(1, 4))
        self.loops.pop()
        self.consume_new(body, self.scopes.pop())
        tail = "end do" + (f" {label}" if label else "")
        names = start.names | end.names
        if self.rc.random() < CONCURRENT and label is None and _concurrent_ok(body, name):
            return pre + [self.do_concurrent(name, start, end, step, body, names)]
        loop = Stmt(header, [(None, body)], tail, "do", reads=names)
        # (a loop that allocates cannot be checkpointed: adgen refuses it, documented)
        if self.rd.random() < DIRECTIVES and not any(
                re.search(r"\b(exit|cycle|return|allocate)\b", x.head) for x in walk(body)):
            # few snapshots, so that the steps are recomputed from them
            loop.directive = f"BINOMIAL-CKP {max(1, hi - lo + 1)} {self.rd.choice((1, 2, 3))} 1"
        return pre + [loop]

    def do_concurrent(self, name, start, end, step, body, names):
        """The loop as DO CONCURRENT: an inner DO loop that is its whole body joins its
        header (two indices; or else, now and then, an index the body does not read), and
        a mask now and then."""
        rc = self.rc
        lo, hi = (start.text, end.text) if step > 0 else (end.text, start.text)
        specs = [f"{name} = {lo}:{hi}" + (f":{step}" if step != 1 else "")]
        inner = re.fullmatch(r"do (\w+) = ([^,]+), ([^,]+)(?:, (-?\d+))?", body[0].head) \
            if len(body) == 1 and body[0].kind == "do" and body[0].directive is None else None
        if inner and not re.search(rf"\b{name}\b", inner.group(2) + inner.group(3)):
            v, a, b, st = inner.groups()
            specs.append(f"{v} = {a}:{b}" + (f":{st}" if st else ""))
            names = names | body[0].reads
            body = body[0].parts[0][1]
        elif rc.random() < 0.5 and _concurrent_ok(body, None):
            # a second index the body does not read: the body runs twice per first index
            # (so it must not read what it assigns)
            extra = self.fresh("c")
            self.decls[extra] = f"integer :: {extra}"
            specs.append(f"{extra} = 1:2")
        if rc.random() < 0.5:
            specs.append(f"mod({name}, 2) == {rc.randint(0, 1)}" if rc.random() < 0.5
                         else f"{name} /= {lo}")
        return Stmt(f"do concurrent ({', '.join(specs)})", [(None, body)], "end do", "do",
                    reads=names)

    def st_while(self, depth):
        """k = lo; do while (k <= hi) ... k = k + step; end do: bounded by the counter,
        with data-dependent EXITs from the body."""
        r = self.r
        d = self.loop_dim(depth)
        if d is None:
            return None
        k = self.fresh("kw")
        self.decls[k] = f"integer :: {k}"
        step = r.choice((1, 1, 2))
        kvar = Var(k, "int", lo=d.lo.lo, hi=d.hi.lo)
        self.scopes.append([kvar])
        self.loops.append(("while", None))
        body = self.block(depth + 1, r.randint(1, 3))
        if r.random() < 0.6:
            body.append(Stmt(f"if ({self.condition().text}) exit", kind="simple"))
        self.loops.pop()
        self.consume_new(body, self.scopes.pop())
        body.append(Stmt(f"{k} = {k} + {step}", pinned=True, reads=[k]))
        return [defining(Stmt(f"{k} = {d.lo.text}", reads=d.lo.names)),
                Stmt(f"do while ({k} <= {d.hi.text})", [(None, body)], "end do", "while",
                     reads=d.hi.names | {k})]

    def st_jump(self, depth):
        """if (cond) exit / cycle, of the innermost loop or of a named outer DO."""
        if not self.loops:
            return None
        r = self.r
        kind, _ = self.loops[-1]
        options = ["exit"] + (["cycle"] if kind == "do" else [])
        named = [lab for _, lab in self.loops if lab]
        if named and r.random() < 0.7:
            lab = r.choice(named)
            options = [f"exit {lab}", f"cycle {lab}"]
        c = self.condition()
        return [Stmt(f"if ({c.text}) {r.choice(options)}", reads=c.names)]

    def st_if(self, depth):
        r = self.r
        if depth >= self.max_depth:
            return None
        c = self.condition()
        parts = [(None, self.sub_block(depth))]
        names = set(c.names)
        if r.random() < 0.35:
            c2 = self.condition()
            names |= c2.names
            parts.append((f"else if ({c2.text}) then", self.sub_block(depth)))
        if r.random() < 0.6:
            parts.append(("else", self.sub_block(depth)))
        return [Stmt(f"if ({c.text}) then", parts, "end if", "if", reads=names)]

    def sub_block(self, depth):
        self.scopes.append([])
        body = self.block(depth + 1, self.r.randint(1, 3))
        self.consume_new(body, self.scopes.pop())
        return body

    def st_select(self, depth):
        r = self.r
        if depth >= self.max_depth:
            return None
        ints = [v for v in self.syms("int") if v.index_ok and v.lo >= 0]
        if ints and r.random() < 0.5:
            v = r.choice(ints)
            sel, names, values = f"mod({v.name}, 3)", {v.name}, 3
        else:
            e = self.rexpr(1)
            sel, names, values = f"int(2.0d0 + 2.0d0 * tanh({e.text}))", set(e.names), 4
        # split 0 .. values-1 into consecutive groups, each a case: (0), (1, 2), (2:), (:1)
        cuts = sorted(r.sample(range(1, values), r.randint(1, values - 1)))
        groups = [list(range(a, b)) for a, b in zip([0] + cuts, cuts + [values])]
        parts = []
        default = r.random() < 0.5
        for gi, g in enumerate(groups):
            if default and gi == len(groups) - 1:
                parts.append(("case default", self.sub_block(depth)))
            elif len(g) == 1:
                parts.append((f"case ({g[0]})", self.sub_block(depth)))
            elif gi == 0 and r.random() < 0.5:
                parts.append((f"case (:{g[-1]})", self.sub_block(depth)))
            elif gi == len(groups) - 1 and r.random() < 0.5:
                parts.append((f"case ({g[0]}:)", self.sub_block(depth)))
            elif r.random() < 0.5:
                parts.append((f"case ({', '.join(map(str, g))})", self.sub_block(depth)))
            else:
                parts.append((f"case ({g[0]}:{g[-1]})", self.sub_block(depth)))
        if r.random() < 0.3 and len(parts) > 1:
            parts.pop(r.randrange(len(parts)))     # a value no case takes
        return [Stmt(f"select case ({sel})", parts, "end select", "select", reads=names)]

    def st_where(self, depth):
        r = self.r
        picked = self.writable_run()
        if picked is None:
            return None
        arrs = [v for v in self.syms("arr") if v.writable]
        L = picked[1]
        with self.calls_barred():
            mask = self.aexpr(L, 1)
            parts = []
            for line in (None, "elsewhere") if r.random() < 0.6 else (None,):
                body = []
                for _ in range(r.randint(1, 2)):
                    tgt, e = self.section(r.choice(arrs), L), self.aexpr(L)
                    if tgt is None or e is None or mask is None:
                        return None
                    e = self.fit(e)
                    body.append(simple(f"{tgt.text} = {e.text}", e,
                                       E("", names=tgt.names - {tgt.text.split('(')[0]})))
                parts.append((line, body))
        thr = fnum(round(r.uniform(-0.4, 0.4) * min(1.0, mask.bound), 2))
        return [Stmt(f"where ({_wrap(mask, 6)} {r.choice(('>', '<'))} {thr})", parts, "end where",
                     "where", reads=mask.names)]

    def st_module_var(self, depth):
        mv = [v for v in self.module_vars if v.writable]
        if not mv or self.fname != HEAD_NAME:
            return None
        v = self.r.choice(mv)
        e = self.fit(self.rexpr(2))
        return [simple(f"{v.name} = {e.text}", e)]

    def st_call(self, depth):
        subs = [h for h in self.helpers if not h.function and h.name != self.fname]
        if not subs:
            return None
        return self.actuals(self.r.choice(subs), as_expr=False)

    def actuals(self, h: Helper, as_expr: bool):
        """A call of h: `call h(...)` (a statement list) or a function reference (E); None
        when the scope has nothing to pass.  Arrays written by the call get a root of their
        own: no actual argument aliases another that the callee writes."""
        r = self.r
        L = next((x for x in self.lengths() if x.lo == h.m and x.names), inum(h.m))
        args, names, written = [], set(), set()
        written_roles = ("out", "inout", "sout", "sinout", "oinout")
        order = sorted(range(len(h.roles)), key=lambda i: h.roles[i][0] not in written_roles)
        chosen = [None] * len(h.roles)

        def candidates(arrs):
            r.shuffle(arrs)
            if self.rows_as_actuals:       # 2-D arrays first: their rows
                arrs.sort(key=lambda v: len(v.dims) != 2)
            return arrs

        for i in order:
            role, _ = h.roles[i]
            if role == "m":
                chosen[i] = E(L.text, names=L.names)
            elif role in ("opt", "oinout") and self.rw.random() < 0.4:
                chosen[i] = OMITTED
            elif role == "opt":
                with self.calls_barred():
                    e = self.fit(self.rexpr(1))
                chosen[i] = OMITTED if e.names & written else E(f"gam={e.text}", names=e.names)
            elif role in ("out", "inout", "oinout"):
                arrs = candidates([v for v in self.syms("arr") if v.writable and v.name not in written])
                # a function reference has no place for the copy back of a row
                how = "no rows" if as_expr else True
                s = next((s for s in (self.section(v, L, for_actual=how) for v in arrs) if s), None)
                if s is None:
                    return None
                written.add(s.text.split("(")[0])
                chosen[i] = s if role != "oinout" else E(f"w={s.text}", names=s.names)
            elif role in ("sout", "sinout"):
                vs = [v for v in self.real_vars() if v.writable and not v.module and v.name not in written]
                if vs:
                    v = r.choice(vs)
                    written.add(v.name)
                    chosen[i] = E(v.name, names=frozenset([v.name]))
            elif role in ("in", "in0"):
                readable = candidates([v for v in self.syms("arr") if v.name not in written])
                s = next((s for s in (self.section(v, L, for_actual=True) for v in readable) if s), None)
                if s is None or r.random() < 0.25:
                    with self.calls_barred():
                        s = self.aexpr(L)       # an array expression, through a temporary
                    if s is None or s.names & written:
                        return None
                    # an expression (a plain section scaled to be one)
                    s = self.fit(scale(0.5, s) if s.section else s)
                chosen[i] = s
            elif role == "str":     # a literal option, now and then with trailing blanks
                lit = self.rq.choice(_OPTIONS)
                chosen[i] = E(f"'{lit}{' ' * self.rq.randint(0, 1)}'")
                if self.rn.random() < NAMED_OPTIONS:
                    # or the same option from the module's CHARACTER array (blank-padded)
                    self.option_table = self.option_table or \
                        self.rn.choice(("parameter", "variable"))
                    chosen[i] = E(f"fz_options({_OPTIONS.index(lit) + 1})")
            else:   # sin
                with self.calls_barred():
                    e = self.rexpr(1)
                if e.names & written:
                    e = num(0.5)
                chosen[i] = self.fit(e)
        pre = []
        target = None
        for i, e in enumerate(chosen):
            if e is OMITTED:
                continue
            if e is None:   # no scalar to take the output: a new local, set first
                v = self.declare(Var(self.fresh("v"), "real"), "")
                self.decls[v.name] = f"real(8) :: {v.name}"
                pre.append(defining(Stmt(f"{v.name} = 0.0d0")))
                e = E(v.name, names=frozenset([v.name]))
            names |= e.names
            if h.array_fn and h.roles[i][1] == "o":
                target = e          # takes the function's value
                continue
            args.append(e.text)
        text = f"{h.name}({', '.join(args)})"
        if as_expr:
            return E(text, CAP, 9, frozenset(names))
        if target is not None:
            return pre + [simple(f"{target.text} = {text}", E("", names=frozenset(names)))]
        call = simple(f"call {text}", E("", names=frozenset(names)))
        if self.rd.random() < DIRECTIVES:
            call.directive = "NOCHECKPOINT"
        return pre + [call]

    def statement(self, depth):
        """A statement (a list: set-up comes with it), now and then followed by a
        fixed-point loop."""
        out = self._statement(depth)
        if self.rd.random() < FP_LOOPS:
            out += self.st_fp_loop(depth) or []
        if self.ra.random() < SCOPED:
            out = self.scoped(out)
        return out

    def scoped(self, stmts):
        """stmts in a BLOCK whose own variable hides a variable of the same name outside
        (one they do not use), or in an ASSOCIATE construct naming a variable they use (its
        name replaced in them) and a value."""
        ra = self.ra
        used = set(re.findall(r"\b\w+\b", "\n".join(lines(stmts))))
        reals = [v for v in self.real_vars() if v.ready]
        # a variable they give its first value must stay at the top level, where
        # consume_new finds it
        if not reals or any(st.defines for st in walk(stmts)):
            return stmts
        src = ra.choice(reals)
        if ra.random() < 0.5:
            # (not a dummy argument: the routine's check that each dummy is read would
            # take the block's own variable for it)
            dummies = {v.name for v in self.scopes[1]}
            free = [v.name for v in reals if v.name not in used and
                    v.name not in (src.name, "sink") and v.name not in dummies]
            name = ra.choice(free) if free else self.fresh("bk")
            own = E(name, 1.0, 9, frozenset([name]))
            body = [pinned(Stmt(f"real(8) :: {name}")),
                    pinned(simple(f"{name} = tanh({src.name})", E(src.name, names=frozenset([src.name])))),
                    self.sink_fold(own)] + stmts
            block = Stmt("block", [(None, body)], "end block", "block", reads={src.name})
            block.reads.discard(name)       # the block's own: outside, the name is not read
            return [block]
        named = [v for v in list(self.syms("real")) + list(self.syms("arr"))
                 if v.name in used and v.ready]
        if not named:
            return stmts
        v = ra.choice(named)
        alias, value = self.fresh("as"), self.fresh("av")
        for st in walk(stmts):      # the lines that may name it (see lines)
            st.head = re.sub(rf"\b{v.name}\b", alias, st.head)
            st.parts = [(re.sub(rf"\b{v.name}\b", alias, p) if p else p, b) for p, b in st.parts]
        body = stmts + [self.sink_fold(E(value, 0.5 * src.bound, 9, frozenset([value])))]
        return [Stmt(f"associate ({alias} => {v.name}, {value} => 0.5d0 * {src.name})",
                     [(None, body)], "end associate", "associate", reads={v.name, src.name})]

    def st_fp_loop(self, depth):
        """do while (chg > 1d-14 .and. it < 300): z(i) = 0.25 tanh(z(next)) tanh(g) + h,
        under !$AD FP-LOOP, g and h reading neither z nor anything else the loop writes: the
        map contracts (by 1/4), so the loop reaches its fixed point from any start. Drawn
        from the directives' stream, with no calls: the program around it is the seed's
        program without it."""
        arrs = [v for v in self.syms("arr") if v.writable and v.ready and not v.module and
                len(v.dims) == 1 and v.dims[0].extent >= 2]
        if not arrs or depth >= self.max_depth:
            return None
        with self.drawing_from(self.rd), self.calls_barred():
            return self._fp_loop(self.r.choice(arrs))

    def _fp_loop(self, z: Var) -> list:
        g = h = None
        for _ in range(10):
            g, h = self.rexpr(2), self.fit(self.rexpr(2), CAP - 0.5)
            if z.name not in g.names | h.names:
                break
        else:
            g, h = num(0.5), num(0.25)
        chg, it, new = self.fresh("fpchg"), self.fresh("fpit"), self.fresh("fpz")
        i = self.fresh("fpi")
        self.decls.update({chg: f"real(8) :: {chg}", new: f"real(8) :: {new}",
                           it: f"integer :: {it}", i: f"integer :: {i}"})
        d = z.dims[0]
        lo, hi = f"({d.lo.text})", f"({d.hi.text})"
        nxt = f"{z.name}(mod({i} - {lo} + 1, {hi} - {lo} + 1) + {lo})"
        value = f"0.25d0 * tanh({nxt}) * tanh({g.text}) + {h.text}"
        names = g.names | h.names | d.lo.names | d.hi.names | {z.name}
        sweep = Stmt(f"do {i} = {d.lo.text}, {d.hi.text}", [(None, [
            Stmt(f"{new} = {value}", reads=names | {i}),
            Stmt(f"{chg} = max({chg}, abs({new} - {z.name}({i})))", reads={chg, new, z.name, i}),
            Stmt(f"{z.name}({i}) = {new}", reads={new, i})])], "end do", "do", reads=names)
        loop = Stmt(f"do while ({chg} > 1.0d-14 .and. {it} < 300)", [(None, [
            Stmt(f"{chg} = 0.0d0", pinned=True), pinned(sweep),
            Stmt(f"{it} = {it} + 1", pinned=True, reads={it})])], "end do", "while",
                    reads={chg, it})
        loop.directive = "FP-LOOP"
        return [Stmt(f"{chg} = 1.0d0"), Stmt(f"{it} = 0"), loop]

    def _statement(self, depth):
        r = self.r
        choices = [(self.st_scalar, 3), (self.st_element, 2), (self.st_section, 2),
                   (self.st_local_array, 1.2), (self.st_do, 3), (self.st_while, 0.8),
                   (self.st_if, 1.5), (self.st_select, 0.8), (self.st_where, 1),
                   (self.st_call, 2), (self.st_2d, 0.5), (self.st_module_var, 0.4)]
        if self.loops:
            choices.append((self.st_jump, 1.2))
        fns, weights = zip(*choices)
        for _ in range(6):
            out = r.choices(fns, weights)[0](depth)
            if out:
                return out
        return self.st_scalar(depth)

    def block(self, depth, n):
        """Up to n statements, as the budget allows (at least one)."""
        out = []
        while n > 0 and self.budget > 0:
            n -= 1
            self.budget -= 1
            out += self.statement(depth)
        return out or self.st_scalar(depth)

    # ------------------------------------------------------------ consumers
    def sink_fold(self, e: E) -> Stmt:
        """sink = 0.5 sink + 0.5 tanh(e): stays within 1 however often it runs."""
        self.sink_used = True
        t = fcall("tanh", self.fit(e, SQUASH), bound=1.0)
        return simple(f"sink = 0.5d0 * sink + 0.5d0 * {t.text}", t)

    def reader(self, v: Var) -> E:
        if v.cls == "str":      # the option's length, trailing blanks left out
            return E(f"0.1d0 * len_trim({v.name})", 1.0, 7, frozenset([v.name]))
        if v.cls == "arr":
            return scale(0.1, fcall("sum", E(v.name, v.bound, 9, frozenset([v.name])), bound=v.bound))
        if v.cls == "int":
            return E(f"0.1d0 * dble({v.name})", 0.1 * v.hi, 7, frozenset([v.name]))
        return E(v.name, v.bound, 9, frozenset([v.name]))

    def consume_new(self, body: list, scope: list):
        """A value a block creates and nothing reads afterwards is folded into the sink,
        so every variable has a reader (and -Wall has nothing unused to report)."""
        for v in scope:
            if v.cls == "int":
                continue
            idx = next((i for i, s in enumerate(body) if re.match(rf"{v.name}\b", s.head)), None)
            if idx is None:
                continue
            if not any(v.name in s.reads for s in body[idx + 1:]):
                body.append(self.sink_fold(self.reader(v)))

    # ------------------------------------------------------------ routines
    def routine(self, name, kind, params, dummy_vars, decls, budget, prologue, epilogue, result=None):
        self.fname = name
        self.counter = {}
        self.decls = dict(decls)
        self.loops = []
        self.no_calls = 0
        self.sink_used = False
        self.budget = budget
        self.scopes = [list(self.module_vars), list(dummy_vars)]
        self.dims = [v for v in dummy_vars if v.cls == "int"]
        body = prologue()
        self.scopes.append([])
        while self.budget > 0:
            self.budget -= 1
            body += self.statement(0)
        self.consume_new(body, self.scopes.pop())
        for v in dummy_vars:
            if not any(v.name in s.reads or re.match(rf"{v.name}\b", s.head) for s in walk(body)):
                body.append(self.sink_fold(self.reader(v)))
        if self.sink_used:
            body.insert(0, defining(Stmt("sink = 0.0d0")))
            self.decls["sink"] = "real(8) :: sink"
        body += epilogue()
        for local, decl in self.decls.items():
            if local not in params and local != result and \
                    re.fullmatch(r"real\(8\) :: \w+", decl) and self.rs.random() < SAVED:
                self.decls[local] = decl.replace("real(8) ::", "real(8), save ::")
        return Routine(name, kind, params, self.decls, body, result)

    def fold_outputs(self, outs, res) -> list:
        """At the end: the sink goes into the first output, an expression into the result."""
        out = []
        if self.sink_used and outs:
            v = outs[0]
            tgt = self.element(v) if v.cls == "arr" else E(v.name, names=frozenset([v.name]))
            t = fcall("tanh", E("sink", 1.0), bound=1.0)
            out.append(simple(f"{tgt.text} = 0.5d0 * {tgt.text} + 0.5d0 * {t.text}", tgt))
        if res:
            e = self.fit(add(self.fit(self.rexpr(2)), self.rleaf()))
            if self.sink_used:
                e = self.fit(add(e, scale(0.5, E("tanh(sink)", 1.0, names=frozenset(["sink"])))))
            out.append(pinned(simple(f"{res} = {e.text}", e)))
        return out

    def helper(self, idx: int, lengths: list) -> Routine:
        r = self.r
        function = r.random() < 0.35
        name = f"fz_{'f' if function else 's'}{idx}"
        m = r.choice(lengths)
        mdim = lin("m", 0, m)
        # a function returning its one output, the array o, as its result (stream rf; the
        # draws of stream r stay those of a subroutine)
        array_fn = not function and self.rf.random() < ARRAY_FUNCTIONS
        roles = [("m", "m"), ("in", "u")]
        if r.random() < 0.4:
            roles.append(("in0", "v"))
        if not function:
            roles += [("out" if array_fn else r.choice(("out", "inout")), "o")]
            if r.random() < 0.4 and not array_fn:
                roles.append(("out", "p"))
        roles += [("sin", "alpha")] if r.random() < 0.6 else []
        if not function:
            beta = [(r.choice(("sout", "sinout")), "beta")] if r.random() < 0.4 else []
            roles += beta if not array_fn else []
        rest = roles[1:]
        r.shuffle(rest)
        roles = roles[:1] + rest
        optional = []       # OPTIONAL dummies come last; the body reads them under present()
        if not function and self.rw.random() < OPTIONAL:
            optional = [self.rw.choice((("opt", "gam"), ("oinout", "w")))]
            optional = optional if not array_fn else []
        if self.rq.random() < STRINGS:
            roles.append(("str", "mode"))       # before the OPTIONAL dummies
        dummies, decls = [], {}
        for role, p in roles:
            intent = {"m": "in", "in": "in", "in0": "in", "sin": "in", "out": "out",
                      "inout": "inout", "sout": "out", "sinout": "inout", "str": "in"}[role]
            if role == "str":
                dummies.append(Var(p, "str", writable=False))
                decls[p] = f"character(len=*), intent(in) :: {p}"
            elif role == "m":
                dummies.append(Var("m", "int", lo=m, hi=m, index_ok=False))
                decls[p] = "integer, intent(in) :: m"
            elif role in ("in", "in0", "out", "inout"):
                lb = 0 if role == "in0" else 1
                dim = Dim(inum(lb), iadd(mdim, lb - 1))
                shape = "m" if lb == 1 else "0:m - 1"
                dummies.append(Var(p, "arr", dims=[dim], writable=role in ("out", "inout"),
                                   ready=role != "out"))
                decls[p] = f"real(8), intent({intent}) :: {p}({shape})"
            else:
                dummies.append(Var(p, "real", writable=role != "sin", ready=role != "sout"))
                decls[p] = f"real(8), intent({intent}) :: {p}"
        outs = [v for (role, _), v in zip(roles, dummies) if role in ("out", "inout", "sout", "sinout")]
        for role, p in optional:
            decls[p] = "real(8), intent(in), optional :: gam" if role == "opt" else \
                "real(8), intent(inout), optional :: w(m)"
        roles += optional
        allocated_result = array_fn and self.rr.random() < ALLOCATABLE_RESULTS
        if array_fn:
            decls["o"] = "real(8), allocatable :: o(:)" if allocated_result else \
                "real(8) :: o(m)"
        # an ALLOCATABLE result allocated by ALLOCATE, or half the time by the assignment
        # that sets it in full first
        explicit = allocated_result and self.rr.random() < 0.5

        def prologue():
            body = [pinned(Stmt("allocate(o(m))"))] if explicit else []
            for (role, p), v in zip(roles, dummies):    # pure outputs are set in full first
                if role == "out":
                    e = self.fit(self.intrinsic(E("u", 1.0, names=frozenset(["u"])), 1))
                    body.append(pinned(simple(f"{p} = {e.text}", e, E("", names=frozenset(["u"])))))
                    v.ready = True
            for (role, p), v in zip(roles, dummies):
                if role == "sout":
                    e = self.fit(self.rexpr(1))
                    body.append(pinned(simple(f"{p} = {e.text}", e)))
                    v.ready = True
            for role, p in optional:
                if role == "opt":
                    text = "if (present(gam)) o(1) = o(1) + 0.25d0 * tanh(gam)"
                else:
                    body.append(pinned(simple("if (present(w)) w = 0.5d0 * w + 0.25d0 * sin(u)",
                                              E("", names=frozenset(["w", "u"])))))
                    text = "if (present(w)) o(m) = o(m) + 0.25d0 * w(1)"
                body.append(pinned(simple(text, E("", names=frozenset(["o", p, "m"])))))
            return body

        result = None
        if function:
            result = "r"
            decls["r"] = "real(8) :: r"
        if array_fn:
            result = "o"
        f = self.routine(name, "function" if function or array_fn else "subroutine",
                         [p for _, p in roles if not (array_fn and p == "o")],
                         dummies, decls, r.randint(2, 6), prologue,
                         lambda: self.fold_outputs(outs, result if function else None), result)
        if allocated_result:
            # adgen cannot keep a block it hands over to the caller: no checkpointed loop
            # or fixed-point loop writes the result (documented)
            for st in walk(f.body):
                if st.directive is not None and st.directive != "NOCHECKPOINT":
                    st.directive = None
        self.helpers.append(Helper(name, m, roles, function, array_fn))
        return f

    def program(self) -> Program:
        r = self.r
        n = r.randint(4, 7)
        nc = r.randint(2, 4) if r.random() < 0.5 else None
        head_lengths = [n, n - 1, 3] + ([nc] if nc else [])
        self.module_vars = [Var("fz_gain", "real", bound=0.75, writable=False, module=True),
                            Var("fz_state", "real", module=True)]
        mdecls = ["real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]",
                  "real(8) :: fz_gain = 0.75d0",
                  "real(8) :: fz_state"]
        # fz_state is set by the head before anything reads it: helpers see it
        self.module_vars[1].writable = True
        helpers = []
        saved_mv = self.module_vars
        self.module_vars = [saved_mv[0]]     # helpers read fz_state only once the head set it
        for i in range(r.randint(0, 3)):
            self.module_vars = [saved_mv[0]] + ([saved_mv[1]] if r.random() < 0.5 else [])
            for v in self.module_vars:
                v.writable = False
            helpers.append(self.helper(i + 1, head_lengths))
        self.module_vars = saved_mv
        saved_mv[1].writable = True

        # the head's dummies: (Var, declaration, arg line, role)
        ndim = lin("n", 0, n)
        ints = [(Var("n", "int", lo=n, hi=n, index_ok=False), "integer, intent(in) :: n", f"integer = {n}")]
        if nc:
            ints.append((Var("nc", "int", lo=nc, hi=nc, index_ok=False), "integer, intent(in) :: nc",
                         f"integer = {nc}"))
        reals, indep, dep = [], ["x"], ["y"]
        lo, hi = r.choice(((-1, 1), (-1, 1), (0, 1), (0.2, 1.5), (-2, 2)))
        reals.append((Var("x", "arr", bound=max(abs(lo), abs(hi)), dims=[Dim(inum(1), ndim)], writable=False),
                      "real(8), intent(in) :: x(n)", f"real(8)[n] = uniform({lo}, {hi})"))
        if r.random() < 0.4:    # lower bound 0 or -1
            lb = r.choice((0, -1))
            reals.append((Var("xl", "arr", bound=1.0, dims=[Dim(inum(lb), iadd(ndim, lb - 1))], writable=False),
                          f"real(8), intent(in) :: xl({lb}:n{lb - 1:+d})".replace("+-", "-"),
                          f"real(8)[{lb}:n{lb - 1:+d}] = uniform(-1, 1)"))
            indep.append("xl")
        if r.random() < 0.3:    # passive input
            reals.append((Var("c", "arr", bound=1.0, dims=[Dim(inum(1), ndim)], writable=False),
                          "real(8), intent(in) :: c(n)", "real(8)[n]"))
        yv = Var("y", "arr", dims=[Dim(inum(1), ndim)], ready=False)
        reals.append((yv, "real(8), intent(out) :: y(n)", "real(8)[n]"))
        outs = [yv]
        if nc:
            zv = Var("z", "arr", bound=1.0, dims=[Dim(inum(1), ndim), Dim(inum(1), lin("nc", 0, nc))])
            reals.append((zv, "real(8), intent(inout) :: z(n, nc)", "real(8)[n, nc] = uniform(-1, 1)"))
            outs.append(zv)
            indep.append("z")
            dep.append("z")
        if r.random() < 0.7:
            reals.append((Var("a", "real", bound=1.0, writable=False), "real(8), intent(in) :: a",
                          "real(8) = uniform(-1, 1)"))
            indep.append("a")
        if r.random() < 0.25:
            reals.append((Var("b", "real", bound=1.0, writable=False), "real(8), intent(in) :: b",
                          "real(8) = 0.75"))
        sv = None
        if r.random() < 0.4:
            sv = Var("s", "real", ready=False)
            reals.append((sv, "real(8), intent(out) :: s", "real(8)"))
            outs.append(sv)
            dep.append("s")
        if r.random() < 0.3:
            tv = Var("t", "real", bound=1.0)
            reals.append((tv, "real(8), intent(inout) :: t", "real(8) = uniform(-1, 1)"))
            outs.append(tv)
            indep.append("t")
            dep.append("t")
        r.shuffle(reals)
        dummies = ints + reals
        function = r.random() < 0.35
        result = "r" if function else None
        decls = {v.name: d for v, d, _ in dummies}
        if function:
            decls["r"] = "real(8) :: r"
            dep.append(HEAD_NAME)

        def prologue():
            # the module variable first: a value left by an earlier call must not be read
            # (not through a helper either: helpers may read it)
            state = self.module_vars[1]
            state.ready = False
            with self.calls_barred():
                e = self.fit(self.rexpr(1))
            body = [simple(f"fz_state = {e.text}", e)]
            state.ready = True
            e = self.fit(self.aexpr(ndim, 1) or E("x", 1.0))
            body.append(pinned(simple(f"y = {e.text}", e)))
            yv.ready = True
            if sv is not None:
                e = self.fit(self.rexpr(1))
                body.append(pinned(simple(f"s = {e.text}", e)))
                sv.ready = True
            return body

        head = self.routine(HEAD_NAME, "function" if function else "subroutine",
                            [v.name for v, _, _ in dummies], [v for v, _, _ in dummies], decls,
                            r.randint(6, 14), prologue, lambda: self.fold_outputs(outs, result), result)
        used = set()
        for rt in [head] + helpers:
            for line in lines(rt.body):
                used |= set(re.findall(r"\bfz_[sf]\d+\b", line))
        helpers = [h for h in helpers if h.name in used]
        if helpers and self.rv.random() < CALLBACKS:
            helpers = with_callback(helpers, head, self.rv)
        allocated = False
        if self.rt.random() < DERIVED:
            mdecls, allocated = with_derived_type(head, mdecls, {"n": n, "nc": nc}, self.rt,
                                                  self.rk, self.rz)
            if "fz_w" in head.decls and self.rb.random() < BINDINGS:
                mdecls = with_bindings(head, mdecls, [h.name for h in helpers], self.rb)
        if self.ru.random() < MODULE_ARRAYS:
            mdecls, kept = with_module_arrays(head, mdecls, self.ru)
            allocated = allocated or kept
        stepper = None
        if self.rp.random() < POINTERS:
            stepper = with_double_buffer(head, self.rp,
                                         random.Random(self.seed * 2147483587 + 127))
        if allocated:
            # adgen cannot keep what a descriptor points to: no checkpointed loop or
            # call, no fixed-point loop
            for rt in [head] + helpers:
                for st in walk(rt.body):
                    if st.directive is not None and st.directive != "NOCHECKPOINT":
                        st.directive = None
        rg = random.Random(self.seed * 2147483587 + 101)
        if rg.random() < GOTOS:
            with_gotos([head] + helpers, rg)
        rk = random.Random(self.seed * 2147483587 + 127)
        for rt in [head] + helpers:
            with_packs(rt.body, rk)
        rn = random.Random(self.seed * 2147483587 + 113)
        if helpers and rn.random() < GENERICS:
            mdecls = with_generics(helpers, head, mdecls, rn)
        if stepper is not None:
            helpers = helpers + [stepper]
        spec = [f"head: {HEAD_NAME}({' '.join(dep)})/({' '.join(indep)})"]
        spec += [f"arg {v.name}: {a}" for v, _, a in dummies]
        spec += ["tol: 1e-5", f"seed: {1 + self.seed % 1000}"]
        if self.option_table is not None:
            width = max(map(len, _OPTIONS))
            values = ", ".join(f"'{o.ljust(width)}'" for o in _OPTIONS)
            attr = ", parameter" if self.option_table == "parameter" else ""
            mdecls = mdecls + [f"character(len={width}){attr} :: "
                               f"fz_options({len(_OPTIONS)}) = [{values}]"]
        return Program(self.seed, mdecls, helpers, head, spec,
                       comment=f"generated by tests.fuzz --lang fortran, seed {self.seed}")


def with_double_buffer(head: Routine, r: random.Random, rs: random.Random):
    """Double buffering, as time steppers write it: two buffers of x's length, one set
    from x, reached through POINTERs fz_pa, fz_pb that a DO loop of a few steps
    (checkpointed half the time) swaps after each step (fz_pt => fz_pa, ...); the result
    goes into y at the end of the head. The buffers are TARGET arrays fz_ba, fz_bb, or
    (rs: half the time) the pointers' own storage (ALLOCATE, DEALLOCATE at the end); a step
    is a DO loop in the head, or (rs: half the time) a call of the module procedure
    fz_step, whose dummies are POINTERs: returned then, else None. Values stay within the
    generator's bounds. adgen must move each pointer's shadow with it, also in the steps a
    checkpointed loop runs again."""
    steps = r.randint(2, 5)
    head.decls.update({
        "fz_pa": "real(8), pointer :: fz_pa(:)", "fz_pb": "real(8), pointer :: fz_pb(:)",
        "fz_pt": "real(8), pointer :: fz_pt(:)", "fz_i": "integer :: fz_i",
        "fz_s": "integer :: fz_s"})
    own_storage, through_call = rs.random() < 0.5, rs.random() < 0.5
    stepper = None
    if through_call:
        stepper = Routine("fz_step", "subroutine", ["fz_p", "fz_q"], {
            "fz_p": "real(8), pointer, intent(in) :: fz_p(:)",
            "fz_q": "real(8), pointer :: fz_q(:)", "fz_k": "integer :: fz_k"}, [Stmt(
                "do fz_k = 1, size(fz_p)", [(None, [Stmt(
                    "fz_q(fz_k) = 0.5d0 * fz_p(fz_k) + 0.3d0 * "
                    "tanh(fz_p(mod(fz_k, size(fz_p)) + 1))")])], "end do", kind="do")])
        update = Stmt("call fz_step(fz_pa, fz_pb)")
    else:
        update = Stmt("do fz_i = 1, n", [(None, [Stmt(
            "fz_pb(fz_i) = 0.5d0 * fz_pa(fz_i) + 0.3d0 * tanh(fz_pa(mod(fz_i, n) + 1))")])],
            "end do", kind="do")
    loop = Stmt(f"do fz_s = 1, {steps}", [(None, [update, Stmt("fz_pt => fz_pa"),
                                                  Stmt("fz_pa => fz_pb"),
                                                  Stmt("fz_pb => fz_pt")])],
                "end do", kind="do")
    if r.random() < 0.5:
        loop.directive = f"BINOMIAL-CKP {steps} {r.choice((1, 2, 3))} 1"
    if own_storage:
        setup = [Stmt("allocate(fz_pa(n), fz_pb(n))"), Stmt("fz_pa = 0.5d0 * x"),
                 Stmt("fz_pb = 0.0d0")]
    else:
        head.decls.update({"fz_ba": "real(8), target :: fz_ba(n)",
                           "fz_bb": "real(8), target :: fz_bb(n)"})
        setup = [Stmt("fz_ba = 0.5d0 * x"), Stmt("fz_bb = 0.0d0"), Stmt("fz_pa => fz_ba"),
                 Stmt("fz_pb => fz_bb")]
    head.body += setup + [loop, Stmt("y(1) = y(1) + 0.1d0 * (fz_pa(1) + fz_pb(n))")]
    if own_storage:
        head.body.append(Stmt("deallocate(fz_pa, fz_pb)"))
    return stepper


def with_generics(helpers: list, head: Routine, mdecls: list, r: random.Random) -> list:
    """The module's declarations with a generic interface `fz_gK` for one or two
    helpers, and some calls of these through it (`fz_g1(...)` for `fz_s1(...)`): adgen must
    find the specific procedure each call means by its arguments' types and ranks. Two
    specifics only when their numbers of arguments differ (so that Fortran can tell them
    apart)."""
    plain = [h for h in helpers if "fz_fn" not in h.params]    # (not fz_via)
    if not plain:
        return mdecls
    picked = r.sample(plain, min(len(plain), r.choice((1, 2))))
    if len(picked) == 2 and (len(picked[0].params) == len(picked[1].params) or
                             picked[0].kind != picked[1].kind or
                             any("optional" in h.decls.get(p, "") for h in picked
                                 for p in h.params)):
        picked = picked[:1]
    generic = "fz_g1"
    out = list(mdecls) + [f"interface {generic}",
                          f"  module procedure {', '.join(h.name for h in picked)}",
                          f"end interface {generic}"]
    for h in picked:
        call = re.compile(rf"\b{h.name}\(")
        for rt in helpers + [head]:
            if rt in picked:
                continue
            for st in walk(rt.body):
                if call.search(st.head) and r.random() < 0.6:
                    st.head = call.sub(f"{generic}(", st.head)
    return out


def with_callback(helpers: list, head: Routine, r: random.Random) -> list:
    """The helpers with `fz_via`, which takes a procedure `fz_fn` declared
    `procedure(H)` after one helper H and calls it with its other arguments, in the place
    of some calls of H: `fz_via(H, args)` for `H(args)`. The values are the same; adgen must
    specialize fz_via for H. (Helpers with OPTIONAL dummies are left alone.)"""
    plain = [h for h in helpers if not any("optional" in h.decls[p] for p in h.params)]
    if not plain:
        return helpers
    h = r.choice(plain)
    decls = {"fz_fn": f"procedure({h.name}) :: fz_fn"}
    decls.update({p: h.decls[p] for p in h.params})
    args = ", ".join(h.params)
    if h.kind == "function":
        decls[h.result] = h.decls[h.result]
        body = [pinned(simple(f"{h.result} = fz_fn({args})", E("", names=frozenset(h.params))))]
    else:
        body = [simple(f"call fz_fn({args})", E("", names=frozenset(h.params)))]
    via = Routine("fz_via", h.kind, ["fz_fn"] + h.params, decls, body, h.result)
    call = re.compile(rf"\b{h.name}\(")
    sites = [(st, k) for rt in helpers + [head] if rt is not h
             for st in walk(rt.body)
             for k, line in enumerate([st.head] + [p for p, _ in st.parts])
             if line and call.search(line)]
    if not sites:
        return helpers
    chosen = [x for x in sites if r.random() < 0.6] or sites[:1]
    for st, k in chosen:
        if k == 0:
            st.head = call.sub(f"fz_via({h.name}, ", st.head)
        else:
            line, body_ = st.parts[k - 1]
            st.parts[k - 1] = (call.sub(f"fz_via({h.name}, ", line), body_)
    return helpers + [via]


# a local real scalar or array, not SAVEd nor allocatable: `real(8) :: w1(0:n - 1, 2)`
_PLAIN_LOCAL = re.compile(r"real\(8\) :: (\w+)(\(([\w :+,-]*)\))?")


def _constant_bounds(decl: str, sizes: dict) -> str:
    """decl with the sizes (n, nc: fixed by the arg lines) in its bounds replaced by their
    values: `real(8) :: w1(0:6, 2)` for `w1(0:n - 1, 2)` with n = 7."""
    m = _PLAIN_LOCAL.fullmatch(decl)
    if not m.group(2):
        return decl
    value = lambda b: str(eval(re.sub(r"\b(n|nc)\b", lambda x: str(sizes[x.group(1)]), b)))
    dims = [":".join(value(b) for b in d.split(":")) for d in m.group(3).split(",")]
    return f"real(8) :: {m.group(1)}({', '.join(dims)})"


def _movable_locals(head: Routine, r: random.Random, arrays_only: bool = False) -> list:
    """Some (3 in 4, stream r) of the head's local real scalars and arrays (arrays only, if
    asked) that are not SAVEd nor allocatable and that no BLOCK or ASSOCIATE declares
    again: those with_derived_type and with_module_arrays keep elsewhere."""
    text = "\n".join(lines(head.body))
    return [name for name, decl in head.decls.items()
            if name not in head.params and name != head.result and
            _PLAIN_LOCAL.fullmatch(decl) and
            (not arrays_only or _PLAIN_LOCAL.fullmatch(decl).group(2)) and
            re.search(rf"\b{name}\b", text) and
            not re.search(rf"::.*\b{name}\b|\b{name}\s*=>", text) and r.random() < 0.75]


def _renamed(head: Routine, names: list, prefix: str) -> None:
    """Each of the names in the head's body given the prefix (`fz_w%w1` for `w1`)."""
    name_re = re.compile(r"(?<![%\w])(" + "|".join(names) + r")\b")
    for st in walk(head.body):
        st.head = name_re.sub(rf"{prefix}\1", st.head)
        st.parts = [(name_re.sub(rf"{prefix}\1", p) if p else p, b) for p, b in st.parts]
        if st.tail:
            st.tail = name_re.sub(rf"{prefix}\1", st.tail)


def with_derived_type(head: Routine, mdecls: list, sizes: dict, r: random.Random,
                      rk: random.Random, rz: random.Random) -> tuple:
    """The module's declarations with a derived type `fz_t` whose components are some of
    the head's local real scalars and arrays (not SAVEd nor allocatable, no BLOCK or
    ASSOCIATE declaring the same name; the bounds of arrays, which read n and nc, given as
    the constants these are), which the head then keeps in one local structure `fz_w`: each
    `w1` of its body becomes `fz_w%w1`. Half the arrays (stream rk) are allocatable
    components instead, allocated with those bounds first thing in the head and
    deallocated automatically at its end. The values are the same; adgen must follow the
    components. In some types (stream rz) the other components have default values, which
    the head's structure gets on entry; when all have one, the head also assigns it the
    constructor `fz_t()` first thing (the values the body reads are the ones it sets).
    Returns the declarations and whether some component is allocatable."""
    chosen = _movable_locals(head, r)
    if not chosen:
        return mdecls, False
    _renamed(head, chosen, "fz_w%")
    fields, allocations = [], []
    defaults = rz.random() < DEFAULTS
    every_default = True
    for name in chosen:
        decl = _constant_bounds(head.decls.pop(name), sizes)
        m = _PLAIN_LOCAL.fullmatch(decl)
        if m.group(2) and rk.random() < COMPONENTS:
            rank = len(m.group(3).split(","))
            fields.append(f"  real(8), allocatable :: {name}({', '.join([':'] * rank)})")
            allocations.append(f"fz_w%{name}{m.group(2)}")
        elif defaults and rz.random() < 0.7:
            fields.append(f"  {decl} = {rz.choice(['0.5d0', '-1.25d0', '2d0', '0d0'])}")
        else:
            fields.append(f"  {decl}")
            every_default = False
    if allocations:
        head.body.insert(0, Stmt(f"allocate({', '.join(allocations)})", pinned=True))
    elif defaults and every_default and rz.random() < 0.5:
        head.body.insert(0, Stmt("fz_w = fz_t()", pinned=True))
    head.decls["fz_w"] = "type(fz_t) :: fz_w"
    return mdecls + ["type :: fz_t"] + fields + ["end type fz_t"], bool(allocations)


def with_bindings(head: Routine, mdecls: list, helpers: list, r: random.Random) -> list:
    """The module's declarations with NOPASS type-bound procedures of `fz_t` bound to
    some of the helpers (half of those the head calls, stream r), which the head then
    calls through its structure: `call fz_w%b_s1(...)`, `fz_w%b_f2(...)` for `call
    fz_s1(...)`, `fz_f2(...)`. The values are the same; adgen must resolve the bindings."""
    text = "\n".join(lines(head.body))
    chosen = [h for h in helpers if re.search(rf"\b{h}\(", text) and r.random() < 0.5]
    if not chosen:
        return mdecls
    call_re = re.compile(r"(?<![%\w])(" + "|".join(chosen) + r")\(")
    bound = lambda t: call_re.sub(lambda m: f"fz_w%b_{m.group(1)[3:]}(", t)  # noqa: E731
    for st in walk(head.body):
        st.head = bound(st.head)
        st.parts = [(bound(part) if part else part, body) for part, body in st.parts]
        if st.tail:
            st.tail = bound(st.tail)
    end = mdecls.index("end type fz_t")
    return mdecls[:end] + ["contains"] + \
        [f"  procedure, nopass :: b_{h[3:]} => {h}" for h in chosen] + mdecls[end:]


def with_module_arrays(head: Routine, mdecls: list, r: random.Random) -> tuple:
    """The module's declarations with allocatable module arrays `fz_ma_w1` standing for some
    of the head's local real arrays (chosen as with_derived_type chooses), which the head
    allocates first thing unless they are allocated already (by an earlier call) and, half
    the time, deallocates at its end. The values are the same; adgen must allocate them and
    their adjoints in the derivative code. Returns the declarations and whether some
    array was chosen."""
    chosen = _movable_locals(head, r, arrays_only=True)
    if not chosen:
        return mdecls, False
    _renamed(head, chosen, "fz_ma_")
    out = list(mdecls)
    for name in reversed(chosen):
        m = _PLAIN_LOCAL.fullmatch(head.decls.pop(name))
        rank = len(m.group(3).split(","))
        out.append(f"real(8), allocatable :: fz_ma_{name}({', '.join([':'] * rank)})")
        head.body.insert(0, Stmt(f"if (.not. allocated(fz_ma_{name})) "
                                 f"allocate(fz_ma_{name}{m.group(2)})", pinned=True))
        if r.random() < 0.5:
            head.body.append(Stmt(f"deallocate(fz_ma_{name})"))
    return out, True


def with_packs(stmts, r: random.Random) -> None:
    """Some masked sums of assignments and calls, `sum(a, mask=m > t)`, written as the same
    value `sum(pack(a, m > t))` (adgen gives pack a temporary before such statements; in
    conditions and loop bounds it has none)."""
    for st in walk(stmts):
        if st.kind == "simple" and (_ASSIGNMENT.match(st.head) or st.head.startswith("call ")):
            st.head = _packed_sums(st.head, r)


def _packed_sums(text: str, r: random.Random) -> str:
    """text with some of its masked sums (outermost ones) written with pack."""
    out, at = [], 0
    for m in re.finditer(r"\bsum\(", text):
        if m.start() < at:
            continue                # inside a sum already rewritten
        depth, split = 0, None
        for k in range(m.end(), len(text)):
            c = text[k]
            if c == ")" and depth == 0:
                break
            depth += (c == "(") - (c == ")")
            if depth == 0 and split is None and text.startswith(", mask=", k):
                split = k
        if split is not None and r.random() < PACKED:
            out += [text[at:m.start()], "sum(pack(", text[m.end():split], ", ",
                    text[split + len(", mask="):k], "))"]
            at = k + 1
    return "".join(out) + text[at:]


def with_gotos(routines, r: random.Random) -> None:
    """Rewrites the EXIT and CYCLE of some DO loops as GOTOs to labelled CONTINUE
    statements, as older Fortran writes them: just after the loop (EXIT) and ending its
    body (CYCLE; the loop goes on with its next iteration)."""
    labels = iter(range(900, 1000))

    def rewrite(stmts, loops):
        out = []
        for s in stmts:
            entry = None
            if s.kind in ("do", "while"):
                m = re.match(r"(\w+): do ", s.head)
                entry = {"name": m.group(1) if m else None, "exit": None, "cycle": None}
            for _, body in s.parts:
                body[:] = rewrite(body, loops + [entry] if entry else loops)
            m = re.match(r"if \((.*)\) (exit|cycle)(?: (\w+))?$", s.head)
            if m and s.kind == "simple" and loops and r.random() < 0.7:
                target = loops[-1] if m.group(3) is None else \
                    next(x for x in loops if x["name"] == m.group(3))
                kind = m.group(2)
                if target[kind] is None:
                    target[kind] = next(labels)
                s.head = f"if ({m.group(1)}) goto {target[kind]}"
            out.append(s)
            if entry and entry["cycle"] is not None:
                s.parts[0][1].append(Stmt(f"{entry['cycle']} continue"))
            if entry and entry["exit"] is not None:
                out.append(Stmt(f"{entry['exit']} continue"))
        return out

    for rt in routines:
        rt.body[:] = rewrite(rt.body, [])


def _concurrent_ok(body, index) -> bool:
    """A DO body that may be a DO CONCURRENT's over `index`: no call (no procedure of the
    program is PURE), no jump out of it, no allocation, no WHILE loop or checkpointed loop
    inside, and no value carried from one iteration to another (`s = f(s)`, `y(i) =
    y(i - 1)`, `y(1:3) = 2 * y(1:3)`), which Fortran does not allow there and gfortran
    computes in an order of its choosing: a scalar or whole array the body assigns is not
    read in it, nor are elements at subscripts that do not read index (None: any
    elements), and an array whose elements it assigns at subscripts reading index is read
    only at those subscripts."""
    scalars, elements, values = set(), {}, []
    for st in walk(body):
        texts = [st.head] + [p for p, _ in st.parts if p] + ([st.tail] if st.tail else [])
        for text in texts:
            if re.search(r"\b(call|exit|cycle|return|allocate|deallocate|go ?to|stop)\b|"
                         r"\bfz_[fs]\d+\s*\(|do while", text):
                return False
        if st.directive is not None:
            return False
        for text in texts:
            m = _ASSIGNMENT.fullmatch(text.strip())
            if m and m.group(2) and index is not None and \
                    re.search(rf"\b{index}\b", m.group(2)):
                elements.setdefault(m.group(1), set()).add(m.group(2).replace(" ", ""))
            elif m:
                scalars.add(m.group(1))
            values.append((m.group(2) or "") + " " + m.group(3) if m else text)
    for text in values:
        if scalars & set(re.findall(r"[a-z_]\w*", text)):
            return False
        for name, subs in elements.items():
            for m in re.finditer(rf"\b{name}\b\s*", text):
                if _subscripts(text, m.end()) not in subs:
                    return False
    return True


def _subscripts(text: str, at: int):
    """The parenthesized subscripts starting at text[at] (spaces taken out), or None."""
    if at >= len(text) or text[at] != "(":
        return None
    depth = 0
    for k in range(at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            return text[at:k + 1].replace(" ", "")
    return None


# the values of the CHARACTER options
_OPTIONS = ("fast", "slow", "upwind", "central")


# an assignment statement: the variable assigned, its subscripts, the value
_ASSIGNMENT = re.compile(r"(?!(?:if|do|where|select|case|else)\b)([a-z_]\w*)\s*(\([^=]*\))?\s*=(?![=>])(.*)")


def generate_program(seed: int) -> Program:
    return FGen(seed).program()


def generate(seed: int) -> str:
    """Fortran source of the program named by seed."""
    return render(generate_program(seed))
