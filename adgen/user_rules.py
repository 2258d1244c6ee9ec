"""Derivative rules the user supplies: a function whose derivative routines are written by
hand (a linear solve whose adjoint is a transposed solve, a library kernel), used instead of
differentiating through the function.

A rule reads like a head, followed by the lengths of its array parameters:

    solve(x)/(A b)  A=n*n b=n x=n

says that `solve`'s output `x` depends on its inputs `A` and `b`, and that the user provides
`solve_b` and `solve_d` with the parameters adgen would give them for that head (Tapenade's
conventions, docs/conventions.md). Rules come from `--rules FILE` (one per line, `#`
comments) or from `#pragma adgen rule ...` in a C source.

How they are called (see docs/rules.md): `NAME_d` computes the primal outputs and their
tangents. `NAME_b` may set or add to the adjoints of pure inputs (adgen passes zeroed
buffers and adds them in, so both conventions work), consumes the seeds of pure outputs,
replaces those of in/out arguments; adgen restores the primal outputs the backward sweep
needs itself.
"""
import re
from dataclasses import dataclass, field

from adgen import ir
from adgen.errors import AdgenError, Loc

_RULE = re.compile(r"\s*([A-Za-z_]\w*\s*\([^)]*\)\s*/\s*\([^)]*\))\s*(.*)$")


@dataclass
class Rule:
    name: str
    dep: list                   # dependents: parameter names, or the function's own name
    indep: list                 # independents
    sizes: dict = field(default_factory=dict)   # parameter name -> C expression text
    text: str = ""
    loc: Loc = None
    builtin: bool = False       # adgen defines NAME_b and NAME_d itself

    def named(self, param):
        return param in self.dep or param in self.indep


def parse_rule(text, loc):
    from adgen.driver import parse_head
    m = _RULE.match(text)
    if not m:
        raise AdgenError(f"malformed rule '{text.strip()}': expected NAME(outputs)/(inputs) "
                         "followed by the lengths of its arrays, NAME=EXPR", loc)
    name, dep, indep = parse_head(m.group(1))
    sizes = {}
    for item in m.group(2).split():
        if "=" not in item:
            raise AdgenError(f"rule for '{name}': expected PARAM=LENGTH, got '{item}' (write "
                             "a length without spaces)", loc)
        k, v = item.split("=", 1)
        sizes[k] = v
    return Rule(name, dep or [], indep or [], sizes, text.strip(), loc)


def read_rules_file(path):
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise AdgenError(f"cannot read the rules file: {exc.strerror}", Loc(path))
    except UnicodeDecodeError:
        raise AdgenError("the rules file is not text", Loc(path))
    rules = []
    for k, line in enumerate(lines, 1):
        line = line.split("#", 1)[0]
        if line.strip():
            rules.append(parse_rule(line, Loc(path, k, 1)))
    return rules


def pragma_rules(prog):
    out = []
    for p in prog.pragmas:
        m = re.match(r"\s*adgen\s+rule\b(.*)$", p.text)
        if m:
            out.append(parse_rule(m.group(1), p.loc))
    return out


def attach_rules(prog, rules):
    """Mark each ruled function: no longer differentiated through (its body, if any, is
    the primal's business), its derivative routines supplied by the user."""
    from adgen.frontend.c_front import parse_length
    for rule in rules:
        f = prog.functions.get(rule.name)
        if f is None or getattr(f, "is_library", False) and rule.name not in BUILTIN_NAMES:
            raise AdgenError(f"rule for '{rule.name}', which is not a function of the input",
                             rule.loc)
        f.is_library = False    # a kernel of adgen's <cblas.h>, ruled now
        if getattr(f, "user_rule", None) is not None:
            raise AdgenError(f"two rules for '{rule.name}'", rule.loc)
        params = ir.params_by_source_name(f)
        for n in rule.dep + rule.indep:
            if n not in params and n != f.name:
                raise AdgenError(f"rule for '{f.name}' names '{n}', which is not one of its "
                                 "parameters", rule.loc)
            p = params.get(n)
            if p is not None and not _differentiable(p.type):
                raise AdgenError(f"rule for '{f.name}': '{n}' is not floating-point data",
                                 rule.loc)
            if p is not None and p.type.resolved().is_float and n in rule.dep:
                raise AdgenError(f"rule for '{f.name}': '{n}' is passed by value, so it "
                                 "cannot be an output", rule.loc)
        if f.name in rule.dep and not f.ret.resolved().is_float:
            raise AdgenError(f"rule for '{f.name}': its result is not floating-point",
                             rule.loc)
        sizes = {}
        for n, text in rule.sizes.items():
            if n not in params or not params[n].type.resolved().is_pointer:
                raise AdgenError(f"rule for '{f.name}': '{n}' is not one of its pointer "
                                 "parameters", rule.loc)
            try:
                sizes[n] = parse_length(text, f.params, prog.language == "fortran", "a rule",
                                        getattr(prog, "macros", {}))
            except AdgenError as exc:
                raise AdgenError(f"rule for '{f.name}': length of '{n}': {exc.message}",
                                 rule.loc)
        for n in rule.dep + rule.indep:
            p = params.get(n)
            if p is not None and p.type.resolved().is_pointer and n not in sizes and \
                    prog.language == "fortran":
                # a scalar dummy is one value; an explicit-shape array its declared size
                from adgen.frontend.fortran_front import declared_size
                if not getattr(p, "fortran_array", True):
                    sizes[n] = ir.Const("1", ir.INT)
                elif declared_size(p, f) is not None:
                    sizes[n] = declared_size(p, f)
            if p is not None and p.type.resolved().is_pointer and n not in sizes:
                raise AdgenError(f"rule for '{f.name}': give the length of '{n}' "
                                 f"({n}=EXPR)", rule.loc)
        # from here on parameters go by their C names
        c_name = lambda n: params[n].name if n in params else n  # noqa: E731
        rule.dep, rule.indep = list(map(c_name, rule.dep)), list(map(c_name, rule.indep))
        f.user_rule = rule
        f.rule_sizes = {c_name(n): e for n, e in sizes.items()}
        f.has_body = False


def _stored(rows, cols, trans):
    """The length of a matrix argument of gemm whose op() is rows x cols (the matrix is
    stored cols x rows when transposed): its last row (Order 101) or column starts ld
    elements after the one before."""
    r, c = f"({trans}==111?{rows}:{cols})", f"({trans}==111?{cols}:{rows})"
    ld = "lda" if trans == "TransA" else "ldb"
    return f"(Order==101?({r}-1)*{ld}+{c}:({c}-1)*{ld}+{r})"


# Rules adgen brings itself, with the derivative routines it defines in its output
# (templates/builtin_rules.c.j2): the CBLAS level-1 kernels in double (d) and single (s)
# precision, positive increments. A copy's Y is in/out: with incY > 1 the elements
# between those written keep their values.
BUILTIN_RULES = [rule for p in "ds" for rule in [
    f"cblas_{p}dot(cblas_{p}dot)/(X Y)  X=1+(N-1)*incX Y=1+(N-1)*incY",
    f"cblas_{p}nrm2(cblas_{p}nrm2)/(X)  X=1+(N-1)*incX",
    f"cblas_{p}axpy(Y)/(alpha X Y)  X=1+(N-1)*incX Y=1+(N-1)*incY",
    f"cblas_{p}scal(X)/(alpha X)  X=1+(N-1)*incX",
    f"cblas_{p}copy(Y)/(X Y)  X=1+(N-1)*incX Y=1+(N-1)*incY",
    # Y = alpha op(A) X + beta Y, A an M x N matrix stored by rows (Order 101) or columns
    f"cblas_{p}gemv(Y)/(alpha A X beta Y)  A=(Order==101?(M-1)*lda+N:(N-1)*lda+M) "
    f"X=1+((TransA==111?N:M)-1)*incX Y=1+((TransA==111?M:N)-1)*incY",
    # C = alpha op(A) op(B) + beta C: op(A) is M x K (A stored M x K, or K x M transposed),
    # op(B) K x N, C M x N
    f"cblas_{p}gemm(C)/(alpha A B beta C)  A={_stored('M', 'K', 'TransA')} "
    f"B={_stored('K', 'N', 'TransB')} C=(Order==101?(M-1)*ldc+N:(N-1)*ldc+M)",
]]


# The same kernels as Fortran input calls them (the reference BLAS's `ddot(n, dx, incx,
# dy, incy)`, `sdot(n, sx, incx, sy, incy)` and so on, every argument by reference): each
# one's dummies, then its rule. A program that calls one without defining it gets these
# dummies and the rule; the derivative routines (`ddot_b_`, ...) are in the same template.
FORTRAN_BLAS = {
    "ddot": ("n dx incx dy incy", "ddot(ddot)/(dx dy)  dx=1+(n-1)*incx dy=1+(n-1)*incy"),
    "dnrm2": ("n x incx", "dnrm2(dnrm2)/(x)  x=1+(n-1)*incx"),
    "daxpy": ("n da dx incx dy incy",
              "daxpy(dy)/(da dx dy)  da=1 dx=1+(n-1)*incx dy=1+(n-1)*incy"),
    "dscal": ("n da dx incx", "dscal(dx)/(da dx)  da=1 dx=1+(n-1)*incx"),
    "dcopy": ("n dx incx dy incy", "dcopy(dy)/(dx dy)  dx=1+(n-1)*incx dy=1+(n-1)*incy"),
    "sdot": ("n sx incx sy incy", "sdot(sdot)/(sx sy)  sx=1+(n-1)*incx sy=1+(n-1)*incy"),
    "snrm2": ("n x incx", "snrm2(snrm2)/(x)  x=1+(n-1)*incx"),
    "saxpy": ("n sa sx incx sy incy",
              "saxpy(sy)/(sa sx sy)  sa=1 sx=1+(n-1)*incx sy=1+(n-1)*incy"),
    "sscal": ("n sa sx incx", "sscal(sx)/(sa sx)  sa=1 sx=1+(n-1)*incx"),
    "scopy": ("n sx incx sy incy", "scopy(sy)/(sx sy)  sx=1+(n-1)*incx sy=1+(n-1)*incy"),
}

BUILTIN_NAMES = {text.split("(", 1)[0] for text in BUILTIN_RULES}


def _integer_dummy(name):
    """True for the dummies of a FORTRAN_BLAS kernel that are integers: n and the
    increments."""
    return name == "n" or name.startswith("inc")


def fortran_blas_dummies(name, arg_types, ret):
    """The dummies of the Fortran BLAS kernel `name` (FORTRAN_BLAS) when a call gives it
    the arguments it takes: integers for n and the increments, reals of the kernel's
    precision (double for d..., single for s...) for the rest and for a function's result.
    None otherwise."""
    if name not in FORTRAN_BLAS:
        return None
    dummies = FORTRAN_BLAS[name][0].split()
    is_function = FORTRAN_BLAS[name][1].startswith(f"{name}({name})")
    real = ir.DOUBLE if name.startswith("d") else ir.FLOAT
    if len(arg_types) != len(dummies) or \
            ret.resolved() != (real if is_function else ir.VOID).resolved():
        return None
    for d, t in zip(dummies, arg_types):
        target = ir.pointee(t.resolved())
        if target is None:
            return None
        want = ir.INT if _integer_dummy(d) else real
        if ir.with_const(target.resolved(), False) != want:
            return None
    return dummies


def builtin_rules(prog, rules):
    """The built-in rules of the kernels the program declares but does not define, and
    that no rule of the user's covers."""
    taken = {r.name for r in rules}
    if prog.language == "fortran":
        # the kernels called with their arguments (see fortran_blas_dummies)
        texts = [text for name, (dummies, text) in FORTRAN_BLAS.items()
                 if [p.name for p in getattr(prog.functions.get(name), "params", [])] ==
                 dummies.split()]
    else:
        texts = BUILTIN_RULES + _fortran_blas_from_c(prog, taken)
    out = []
    for text in texts:
        rule = parse_rule(text, None)
        f = prog.functions.get(rule.name)
        if f is not None and not f.has_body and rule.name not in taken:
            rule.builtin = True
            out.append(rule)
    return out


def _fortran_blas_from_c(prog, taken):
    """Rules for the Fortran BLAS kernels a C program declares under gfortran's symbols
    (`double ddot_(const int *n, const double *dx, const int *incx, ...)`): the kernel's
    parameters take the reference BLAS's names, which the rule uses, and its lengths read
    the integers through their pointers."""
    out = []
    for name, (dummies, text) in FORTRAN_BLAS.items():
        f = prog.functions.get(name + "_")
        if f is None or f.has_body or f.name in taken or fortran_blas_dummies(
                name, [p.type for p in f.params], f.ret) is None:
            continue
        ints = {d for d in dummies.split() if _integer_dummy(d)}
        for p, d in zip(f.params, dummies.split()):
            p.name = d
        head, lengths = text.split(None, 1)
        head = re.sub(rf"\b{name}\b", name + "_", head)
        lengths = re.sub(r"\b\w+\b", lambda m: f"(*{m.group()})" if m.group() in ints
                         else m.group(), lengths)
        out.append(f"{head}  {lengths}")
    return out


def derivative_link_names(prog):
    """{NAME_b: its symbol} of the derivative routines of ruled Fortran procedures:
    external procedures as gfortran names them (solve_b_)."""
    out = {}
    for f in prog.functions.values():
        if getattr(f, "user_rule", None) is not None:
            for suffix in ("_b", "_d", "_dv"):
                out[f.name + suffix] = f.name + suffix + "_"
    return out


def _differentiable(t):
    t = t.resolved()
    if t.is_float:
        return True
    target = ir.pointee(t)
    return target is not None and target.resolved().is_float


def result_is_active(act, lhs):
    """True when the variable a call's result goes to (None for none) carries a
    derivative."""
    return lhs is not None and lhs.type.resolved().is_float and act.active_value(lhs)


def ruled_call_arrays(mem, f, call, written=False):
    """The memory nodes of the arrays a call of ruled function f is given (written=True:
    those it writes, its pointer outputs)."""
    from adgen.analysis.activity import find
    return [find(mem.target(a)) for p, a in zip(f.params, call.args)
            if p.type.resolved().is_pointer and (p.name in f.user_rule.dep or not written)]


def derivative_flows(act, f, call, lhs_active):
    """True when a call of ruled function f has an output that carries a derivative."""
    rule = f.user_rule
    return (lhs_active and f.name in rule.dep) or any(
        p.name in rule.dep and act.has_shadow(a) for p, a in zip(f.params, call.args))


def rule_length(f, name, args):
    """The length the rule of f gives its array parameter `name` at a call with args, its
    constant parts worked out (the comparisons of enumerators decided)."""
    from adgen.transform.exprs import fold, substitute
    return fold(substitute(f.rule_sizes[name], dict(zip(f.params, args))))


def size_at_call(f, param, args):
    """The length of a ruled function's array parameter at a call, as an IR expression
    (a long, never below 0)."""
    n = rule_length(f, param.name, args)
    return ir.Call("adgen_imax", [n, ir.Const("0", ir.LONG)], ir.LONG)


def derivative_signature(f, mode, fortran=False):
    """(name, return type, parameters) of NAME_b / NAME_d for a ruled function f; in
    Fortran, NAME_b takes the result's seed by reference."""
    rule = f.user_rule
    params = []
    for p in f.params:
        params.append(p)
        if not rule.named(p.name):
            continue
        t = p.type.resolved()
        suffix = "b" if mode == "reverse" else "d"
        if t.is_float:
            st = ir.Ptr(ir.with_const(p.type, False)) if mode == "reverse" else p.type
        elif mode == "reverse":
            st = ir.Ptr(ir.with_const(ir.pointee(t), False))
        else:
            st = p.type
        params.append(ir.Symbol(p.name + suffix, st, "param"))
    ret = ir.VOID
    if f.name in rule.dep:
        if mode == "reverse":
            seed = ir.with_const(f.ret, False)
            params.append(ir.Symbol(f.name + "b", ir.Ptr(seed) if fortran else seed, "param"))
        else:
            ret = ir.with_const(f.ret, False)
            params.append(ir.Symbol(f.name, ir.Ptr(ir.with_const(f.ret, False)), "param"))
    elif mode == "forward" and not f.ret.resolved().is_void:
        ret = f.ret             # NAME_d returns what NAME returns
    suffix = "_b" if mode == "reverse" else "_d"
    return f.name + suffix, ret, params
