"""Non-blocking MPI on floating-point buffers (docs/mpi.md): MPI_Isend and MPI_Irecv, and
the MPI_Wait / MPI_Waitall calls that complete their requests.

A request meets its completion only at run time, so the derivative code pairs them there:
the forward sweep notes each post under the address of its request variable and, at the
completion, keeps what the post was; the completion's adjoint posts the reversed transfer
(a receive of the adjoint for a send, a send of the buffer's adjoint for a receive), and
the post's adjoint completes it (templates/mpi_requests.c.j2, which also keeps the
reversed transfers of one channel in the order MPI paired their messages).

The completion's adjoint must find the adjoint of a receive's buffer, which the backward
sweep of a function holds at another address than its forward sweep did (its locals are
its own). So every post names its buffer as a *site*: a base the function can name again
anywhere (an array of its own, a pointer parameter it never changes, a variable's address)
and an element offset from it, passed as two more arguments of the post's variant. The
completion's variant takes the function's bases as further arguments, whose adjoints its
derivative routine receives (Rule.refs). For that a request must be a local of the
function that posts it, so that its completion is there too.
"""
from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.rules import MPI_COMPLETION

POSTS = ("MPI_Isend", "MPI_Irecv")
# the blocking point-to-point calls, whose messages share channels with the posts'
BLOCKING = ("MPI_Send", "MPI_Recv", "MPI_Sendrecv")


def check_request(f, call, e):
    """Refuses a request argument that is not the address of a local of f (`&req`,
    `&reqs[k]`, `reqs + k`, `reqs`)."""
    if isinstance(e, ir.AddrOf):
        base = e.arg
        while isinstance(base, ir.Index):
            base = base.base
        fixed = isinstance(base, ir.Ref) and (base is e.arg or base.sym.type.resolved().is_array)
    else:
        base = e.left if isinstance(e, ir.Binary) and e.op == "+" else e
        fixed = isinstance(base, ir.Ref) and base.sym.type.resolved().is_array
    if not (fixed and base.sym.kind == "local" and base.sym in f.locals):
        raise AdgenError(f"{call.func}: its request must be a local variable (or array) of "
                         f"'{f.name}', which posts and completes it: the derivative code "
                         "pairs a request with its completion in the function", call.loc)
    for st in ir.stmts_walk(f.body.stmts):
        if isinstance(st, ir.Assign) and X.mentions(st.rhs, base.sym):
            # (the derivative code finds a request by its variable's address)
            raise AdgenError(f"{call.func}: its request '{base.sym.name}' is copied: the "
                             "derivative code pairs a request with its completion by the "
                             "variable that holds it; complete it through that variable",
                             st.loc)
        for e in ir.stmt_exprs(st):
            for other in ir.walk(e):
                # (MPI's other routines on requests are refused as not supported yet)
                if isinstance(other, ir.Call) and \
                        not other.func.startswith(("adgen_mpi_", "MPI_")) and \
                        any(X.mentions(a, base.sym) for a in other.args):
                    raise AdgenError(f"{call.func}: its request '{base.sym.name}' is passed "
                                     f"to '{other.func}': the derivative code pairs a request "
                                     f"with its completion in '{f.name}' itself", other.loc)


def buffer_site(f, call, e):
    """(base, offset) of a non-blocking call's buffer: e is `&base[offset]`,
    `base + offset`, `base` or `&x`, base an array of f's or of the program, a pointer
    parameter f never changes, or a variable's address."""
    zero = ir.Const("0", ir.INT)
    if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Index):
        base, offset = e.arg.base, e.arg.index
    elif _pointer_sum(e):
        base, offset = e, zero
        while _pointer_sum(base):      # (`u + n - 1` is `(u + n) - 1`)
            step = X.clone(base.right)
            base, offset = base.left, X.add(step, offset) if base.op == "+" else \
                X.sub(offset, step)
        offset = X.fold(offset)
    elif isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Ref) and \
            not e.arg.type.resolved().is_array:
        return e, zero
    else:
        base, offset = e, zero
    if isinstance(base, ir.Ref) and _fixed_base(f, base.sym):
        return base, offset
    raise AdgenError(f"{call.func}: its buffer must be an array, a pointer parameter "
                     f"'{f.name}' never changes, or a variable's address, written `&u[k]`, "
                     "`u + k`, `u` or `&x`: the adjoint of its request's completion finds "
                     "the buffer's adjoint from it", call.loc)


def _pointer_sum(e):
    """True for `p + k` and `p - k`, p a pointer or an array."""
    return isinstance(e, ir.Binary) and e.op in "+-" and e.left.type is not None and \
        (e.left.type.resolved().is_pointer or e.left.type.resolved().is_array)


def _fixed_base(f, sym):
    t = sym.type.resolved()
    if isinstance(t, ir.Arr):
        return not ir.with_const(t.elem, False).resolved().is_array     # (one dimension)
    if sym.kind != "param" or not t.is_pointer:
        return False
    for st in ir.stmts_walk(f.body.stmts):
        if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and st.lhs.sym is sym:
            return False
        for e in ir.stmt_exprs(st):
            if any(isinstance(x, ir.AddrOf) and isinstance(x.arg, ir.Ref) and x.arg.sym is sym
                   for x in ir.walk(e)):
                return False
    return True


def site_params(site, offset):
    """The two parameters a post's variant takes beyond the routine's."""
    return [ir.Symbol("site", ir.INT, "param", site.loc),
            ir.Symbol("offset", ir.LONG, "param", offset.loc)]


def completion_variants(prog, f, bases, precision, variants, calls):
    """Makes each MPI_Wait / MPI_Waitall of f a call of a variant taking f's bases
    (`adgen_mpi_Waitall_2_double`); calls: (statement, call) of f."""
    for s, call in calls:
        if call.func not in MPI_COMPLETION:
            continue
        try:
            if call is not ir.statement_call(s):
                raise AdgenError(f"{call.func} inside an expression, in a function that "
                                 "posts non-blocking requests on floating-point data: call "
                                 "it as a statement of its own", call.loc)
            check_request(f, call, call.args[MPI_COMPLETION[call.func] - 1])
        except AdgenError as exc:
            call.mpi_refusal = exc
            continue
        routine = prog.functions[call.func]
        name = f"adgen_mpi_{call.func[4:]}_{len(bases)}_{precision}"
        refs = [f"base{k}" for k in range(len(bases))]
        if name not in prog.functions:
            elem = ir.Ptr(ir.with_const(ir.Prim(precision), True))
            params = [ir.Symbol(p.name, p.type, "param", p.loc) for p in routine.params] + \
                [ir.Symbol(r, elem, "param", routine.loc) for r in refs]
            variant = ir.Function(name, routine.ret, params, ir.Block([]), loc=routine.loc,
                                  has_body=False)
            variant.mpi_routine = call.func
            prog.functions[name] = variant
            variants[name] = (call.func, "()/()", refs)
        call.args = list(call.args) + [X.clone(b) for b in bases]
        call.func = name


def forward_call(sub, routine, adjoint):
    """Makes sub, a call of a variant of `routine` outside the derivative routines, the call
    the output makes: the _f wrapper in an adjoint's forward sweep (which notes the
    request), else the routine itself with the program's arguments."""
    if routine in POSTS:
        if adjoint:
            sub.func += "_f"
        else:
            sub.args, sub.func = sub.args[:-2], routine
    elif routine in MPI_COMPLETION:
        keep = len(("request", "status")) + (routine == "MPI_Waitall")
        sub.args = sub.args[:keep]
        sub.func = f"adgen_mpi_{routine[4:]}_f" if adjoint else routine

