"""MPI calls of a C program (docs/mpi.md): each call of a communication routine on
floating-point buffers becomes a call of a typed variant of the routine, its buffers
`double *` or `float *`, whose built-in rule (rules.MPI_COMMUNICATION) says what flows
through it; its derivative routines are emitted into the output
(templates/mpi_rules.c.j2). What adgen cannot differentiate yet is refused at the call
when a head reaches it (`check_mpi_calls`): a program's main may call MPI as it likes.

The variants are names of the IR only: the output calls the routine itself
(`name_mpi_calls`), with the arguments as the program gives them.
"""
import re

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.frontend.mpi_requests import (BLOCKING, POSTS, buffer_site, check_request,
                                         completion_variants, forward_call, site_params)
from adgen.rules import (MPI_COMMUNICATION, MPI_DATATYPES, MPI_IN_PLACE_RULES, MPI_INACTIVE,
                         MPI_COMPLETION, MPI_OPS, MPI_UNREAD_BY_ADJOINT)

_PREFIX = "adgen_mpi_"


def is_variant(name):
    """True for the name of a typed variant of an MPI routine."""
    return name.startswith(_PREFIX)


def mpi_rules(prog):
    """Makes each call of an MPI communication routine on floating-point buffers, in the
    program's functions, a call of the typed variant it needs; the rules of the variants
    made (frontend/user_rules.Rule, built in and communicating)."""
    from adgen.frontend.user_rules import parse_rule
    if prog.language != "c":
        return []
    variants = {}
    for f in list(prog.functions.values()):
        if not f.has_body or getattr(f, "is_library", False):
            continue
        calls = list(_calls_in(f.body.stmts))
        sites = _Sites()
        for s, call in calls:
            if call.func in MPI_COMMUNICATION:
                try:
                    _specialize(prog, call, call is ir.statement_call(s), variants, f, sites)
                except AdgenError as exc:
                    call.mpi_refusal = exc      # raised if a head reaches it
        if sites.bases:
            completion_variants(prog, f, sites.bases, sites.precision, variants, calls)
    rules = []
    for name, (routine, text, refs) in sorted(variants.items()):
        rule = parse_rule(name + text, None)
        rule.builtin = rule.communicates = True
        rule.writes = [p.name for p in prog.functions[name].params
                       if p.name in ("status", "statuses")]
        rule.unread = list(MPI_UNREAD_BY_ADJOINT.get(routine, ()))
        rule.refs = refs
        rules.append(rule)
    return rules


class _Sites:
    """The bases of a function's non-blocking posts on floating-point data
    (frontend/mpi_requests.py) and their precision."""

    def __init__(self):
        self.bases, self.precision = [], None

    def index(self, call, base, precision):
        if self.precision not in (None, precision):
            raise AdgenError(f"{call.func}: non-blocking requests on {self.precision} and on "
                             f"{precision} data in one function are not supported yet",
                             call.loc)
        self.precision = precision
        for k, b in enumerate(self.bases):
            if X.same_text(b, base):
                return k
        self.bases.append(base)
        return len(self.bases) - 1


# Directives under which the derivative code runs a loop's iterations again, or in another
# order or number than the primal on each rank (binomial checkpointing, the two-phase
# fixed-point adjoint, one iteration reversed at a time, OpenMP threads).
_REPLAYING = re.compile(r"\s*(adgen\s+(binomial_ckp|fp_loop|independent)|omp)\b")


def _calls_in(stmts):
    """(statement, call) for each call the statements make, nested ones too."""
    for s in ir.stmts_walk(stmts):
        for e in ir.stmt_exprs(s):
            for call in ir.walk(e):
                if isinstance(call, ir.Call):
                    yield s, call


def check_mpi_calls(prog, names):
    """Raises the refusal of the first MPI call adgen cannot differentiate in the functions
    `names` (those the heads reach), and refuses communication in their loops whose
    iterations the derivative code runs again or out of order."""
    for name in names:
        f = prog.functions[name]
        if f.has_body:
            for _, call in _calls_in(f.body.stmts):
                if getattr(call, "mpi_refusal", None) is not None:
                    raise call.mpi_refusal
    _refuse_replayed_messages(prog, names)


def _refuse_replayed_messages(prog, names):
    """An MPI communication in a loop under a directive of _REPLAYING, itself or in a
    function the loop calls, is refused: its messages would be sent again, or in another
    order, by the derivative code (checkpointing communication is for later)."""
    bodies = {f.name: f for f in prog.functions.values()
              if f.has_body and not getattr(f, "is_library", False)}
    communicating = {}      # function name -> the MPI call it makes, itself or deeper

    def communication(stmts, seen):
        for _, call in _calls_in(stmts):
            if is_variant(call.func) or call.func.startswith("MPI_") and \
                    call.func not in MPI_INACTIVE:
                return call
            if call.func in bodies and call.func not in seen:
                seen.add(call.func)
                if call.func not in communicating:
                    communicating[call.func] = communication(bodies[call.func].body.stmts,
                                                             seen)
                if communicating[call.func] is not None:
                    return communicating[call.func]
        return None
    for f in (bodies[name] for name in names if name in bodies):
        lists = [f.body.stmts] + [lst for s in ir.stmts_walk(f.body.stmts)
                                  for lst in ir.nested_lists(s)]
        for stmts in lists:
            for s, loop in zip(stmts, stmts[1:]):
                m = isinstance(s, ir.Pragma) and _REPLAYING.match(s.text)
                if not m or not isinstance(loop, (ir.For, ir.While, ir.DoWhile)):
                    continue
                call = communication([loop], set())
                if call is not None:
                    raise AdgenError(f"{_routine_of(call.func)} in a loop under "
                                     f"'#pragma {s.text.strip()}': the derivative code "
                                     "would run its communication again or out of order "
                                     "(not supported yet: docs/mpi.md)", call.loc)


def _specialize(prog, call, own_statement, variants, f, sites):
    routine = prog.functions[call.func]
    buffers, text = MPI_COMMUNICATION[call.func]
    params = {p.name: k for k, p in enumerate(routine.params)}
    arg = lambda name: call.args[params[name]]  # noqa: E731
    in_place = any(_names(arg(b), "MPI_IN_PLACE") for b in buffers)
    for b in buffers:
        if any(_names(sub, "MPI_IN_PLACE") for sub in ir.walk(arg(b))) and \
                not _names(arg(b), "MPI_IN_PLACE"):
            # the variant (and its derivative's collectives) is chosen once per call
            raise AdgenError(f"{call.func}: MPI_IN_PLACE chosen at run time for '{b}': "
                             "write the call with MPI_IN_PLACE and the one without as two "
                             "calls (`if (rank == root) ... else ...`)", call.loc)
    elems = {}
    # a null pointer for a buffer that has no elements on this rank (Gather's receive
    # buffer, Scatter's send buffer, off the root: its length adgen_root_...): typed as
    # the other buffer
    from adgen.frontend.user_rules import parse_rule
    lengths = parse_rule(call.func + text, call.loc).sizes
    nulls = {b for b in buffers if X.is_null(arg(b)) and "adgen_root_" in lengths.get(b, "")}
    for b, datatype in buffers.items():
        if _names(arg(b), "MPI_IN_PLACE") or b in nulls:
            continue
        elem = _element(arg(b))
        if elem is None:
            raise AdgenError(f"{call.func}: adgen cannot tell the type of the data of "
                             f"'{b}': pass an array of double, float or integers itself "
                             "(not through a void pointer, nor structs)", call.loc)
        if elem.is_float and elem.name not in MPI_DATATYPES:
            raise AdgenError(f"{call.func}: '{b}' is {elem.name} data: only double and "
                             "float buffers are differentiated", call.loc)
        want = MPI_DATATYPES.get(elem.name) if elem.is_float else None
        given = _global_name(arg(datatype))
        if want is None and given in MPI_DATATYPES.values():
            raise AdgenError(f"{call.func}: '{b}' is not {_c_type(given)} data but its "
                             f"datatype is {given}", call.loc)
        if want is not None and given != want:
            raise AdgenError(f"{call.func}: '{b}' is {elem.name} data, which adgen "
                             f"differentiates sent as {want} only (not "
                             f"{given or 'a datatype given by a variable'})", call.loc)
        elems[b] = elem
    floating = {e.name for e in elems.values() if e.is_float}
    if not floating:
        if in_place and not elems:
            raise AdgenError(f"{call.func}: MPI_IN_PLACE for every buffer", call.loc)
        return          # integer data: kept as written, no derivative
    if len(floating) > 1 or len(floating) != len({e.name for e in elems.values()}):
        raise AdgenError(f"{call.func}: its buffers hold data of different types",
                         call.loc)
    if in_place and call.func not in MPI_IN_PLACE_RULES:
        raise AdgenError(f"{call.func} with MPI_IN_PLACE on floating-point data is not "
                         "supported yet (docs/mpi.md)", call.loc)
    if "op" in params and _global_name(arg("op")) not in MPI_OPS:
        raise AdgenError(f"{call.func}: only the reductions {', '.join(MPI_OPS)} of "
                         "floating-point data are differentiated yet (not "
                         f"{_global_name(arg('op')) or 'an operation given by a variable'})",
                         call.loc)
    for p, wild in (("source", "from MPI_ANY_SOURCE"), ("tag", "with MPI_ANY_TAG"),
                    ("recvtag", "with MPI_ANY_TAG")):
        if p in params and _names(arg(p), wild.split()[1]):
            raise AdgenError(f"{call.func}: a receive of floating-point data {wild}: "
                             "its adjoint must send back to the same peer and tag, which "
                             "adgen does not record (name them)", call.loc)
    if not own_statement:
        raise AdgenError(f"{call.func} on floating-point data inside an expression: call it "
                         "as a statement of its own (`MPI_...(...);` or `rc = MPI_...(...);`)",
                         call.loc)
    precision = floating.pop()
    extra = []      # a non-blocking post's site and offset (frontend/mpi_requests.py)
    if call.func in POSTS:
        check_request(f, call, _without_void_cast(arg("request")))
        base, offset = buffer_site(f, call, _without_void_cast(arg("buf")))
        extra = [ir.Const(str(sites.index(call, base, precision)), ir.INT, call.loc),
                 X.clone(offset)]
    name = f"{_PREFIX}{call.func[4:]}{'_in_place' if in_place else ''}_{precision}"
    if name not in prog.functions:
        typed = []
        for p in routine.params:
            t = p.type
            if p.name in elems or p.name in nulls:
                const = ir.pointee(t.resolved()).const
                t = ir.Ptr(ir.with_const(ir.Prim(precision), const))
            typed.append(ir.Symbol(p.name, t, "param", p.loc))
        if extra:
            typed += site_params(*extra)
        variant = ir.Function(name, routine.ret, typed, ir.Block([]), loc=routine.loc,
                              has_body=False)
        variant.mpi_routine = call.func
        prog.functions[name] = variant
        variants[name] = (call.func, MPI_IN_PLACE_RULES[call.func] if in_place else text, [])
    call.args = list(call.args) + extra
    for b in elems:
        k = params[b]
        call.args[k] = _without_void_cast(call.args[k])
    for b in nulls:     # a null pointer of the buffer's type (its derivative's too)
        k = params[b]
        call.args[k] = X.null(ir.Ptr(ir.Prim(precision)), call.args[k].loc)
    call.func = name


def _element(e):
    """The element type of the data a buffer argument points to (through a cast to a
    void pointer), or None when it is not known (a void pointer)."""
    e = _without_void_cast(e)
    t = ir.pointee(e.type.resolved()) if e.type is not None else None
    if t is None:
        return None
    t = ir.with_const(t.resolved(), False)
    return t if isinstance(t, ir.Prim) and t.name != "void" else None


def _without_void_cast(e):
    while isinstance(e, ir.Cast) and isinstance(e.to.resolved(), ir.Ptr) and \
            ir.pointee(e.to.resolved()).resolved().name == "void":
        e = e.arg
    return e


def _global_name(e):
    """The name of the constant of <mpi.h> an argument is (MPI_DOUBLE), or None."""
    e = _without_void_cast(e)
    if isinstance(e, ir.Ref) and e.sym.kind == "global":
        return e.sym.name
    return None


def _names(e, name):
    return _global_name(e) == name


def _c_type(datatype):
    return next(c for c, d in MPI_DATATYPES.items() if d == datatype)


def name_mpi_calls(functions, adjoints):
    """The output calls each MPI routine under its own name: a typed variant's call is a
    call of its routine, or, for a non-blocking post or its completion in an adjoint's
    forward sweep (one whose adjoint routine NAME_b is among `adjoints`), of the wrapper
    that notes the request (frontend/mpi_requests.py)."""
    # (beside non-blocking requests, a blocking message is counted in its channel too)
    channels = any(re.match(r"adgen_mpi_(Isend|Irecv)_\w+_b$", name) for name in adjoints)
    for fn in functions:
        sweep = not getattr(fn, "primal_copy", False)
        for st in ir.stmts_walk(fn.body.stmts if isinstance(fn.body, ir.Block) else fn.body):
            exprs = list(ir.stmt_exprs(st))
            if isinstance(st, ir.Raw):
                exprs += [v for v in st.args.values() if isinstance(v, ir.Expr)]
            for e in exprs:
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Call) and is_variant(sub.func) and \
                            not sub.func.endswith(("_b", "_d", "_dv", "_f")):
                        routine = _routine(sub.func)
                        if routine in POSTS or routine in MPI_COMPLETION:
                            forward_call(sub, routine, sweep and sub.func + "_b" in adjoints)
                        elif routine in BLOCKING and channels and sweep and \
                                sub.func + "_b" in adjoints:
                            sub.func += "_f"
                        else:
                            sub.func = routine


def _routine_of(name):
    """The MPI routine a call calls: itself, or the one of a typed variant."""
    return _routine(name) if is_variant(name) else name


def _routine(variant):
    """MPI_Allreduce of adgen_mpi_Allreduce_in_place_double."""
    base = variant[len(_PREFIX):].rsplit("_", 1)[0]
    # (a completion's variant names the number of its function's bases: Waitall_2)
    return "MPI_" + re.sub(r"_\d+$", "", base.replace("_in_place", ""))
