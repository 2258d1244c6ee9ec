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
from adgen.rules import (BUILTIN_NAMES, BUILTIN_RULES, FORTRAN_BLAS, fortran_blas_dummies,
                         integer_dummy)

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
    # a message of another process's: a derivative goes out through an input (an MPI
    # send) or comes in to an output (a receive) with nothing on this process's other
    # side (frontend/mpi_calls.py)
    communicates: bool = False
    # pointer parameters the call writes that carry no derivative (an MPI status)
    writes: list = field(default_factory=list)
    # in/out parameters whose values before the call NAME_b does not read (an MPI receive
    # buffer): kept only where the backward sweep reads them, restored after NAME_b
    unread: list = field(default_factory=list)
    # pointer parameters with no derivative flowing through them whose adjoints NAME_b
    # takes all the same (the bases of a function's non-blocking MPI requests, through
    # which an MPI_Wait's adjoint finds the buffers': frontend/mpi_requests.py)
    refs: list = field(default_factory=list)

    def named(self, param):
        return param in self.dep or param in self.indep


def parse_rule(text, loc):
    from adgen.frontend.heads import parse_head
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
        ints = {d for d in dummies.split() if integer_dummy(d)}
        for p, d in zip(f.params, dummies.split()):
            p.name = d
        head, lengths = text.split(None, 1)
        head = re.sub(rf"\b{name}\b", name + "_", head)
        lengths = re.sub(r"\b\w+\b", lambda m: f"(*{m.group()})" if m.group() in ints
                         else m.group(), lengths)
        out.append(f"{head}  {lengths}")
    return out


def _differentiable(t):
    t = t.resolved()
    if t.is_float:
        return True
    target = ir.pointee(t)
    return target is not None and target.resolved().is_float
