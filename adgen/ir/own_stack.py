"""adgen's value stack met again in its own output, given back to it (the tangent of an
adjoint: second derivatives, docs/second-order.md).

The C front end reads the stack calls of the output as statements every analysis already
understands: `adgen_push(&v, sizeof(v))` and `adgen_push_int(e)` as `adgen_pushed(v);`,
a call that reads v, `adgen_keep(&v, sizeof(v))` as `adgen_kept(v);`, and `adgen_pop(&v,
sizeof(v))` as `v = adgen_popped();`, an assignment of v. To activity analysis the stack is one variable, STACK: what is pushed
flows into it, what is popped flows out of it. The tangent transform turns the two back
into the stack's own statements, with the tangents of floating-point values pushed and
popped beside them; any other transform meeting them refuses them."""
from adgen import ir
from adgen.ir import exprs as X
from adgen.ir.c_text import type_name

PUSHED = "adgen_pushed"
POPPED = "adgen_popped"
# `adgen_keep(&v, sizeof(v))`: v's value logged, put back when the log is replayed (the
# final values of the caller's memory the backward sweep overwrites)
KEPT = "adgen_kept"

# the stack, as one variable of the program (activity analysis only)
STACK = ir.Symbol("adgen_value_stack", ir.DOUBLE, "global")


_STRUCT_STACKS = {}


def struct_stack(t):
    """The structs of type t on the stack, as one variable to activity analysis: every
    struct of the type pushed or popped is one memory, so each has a tangent or none."""
    key = type_name(ir.with_const(t, False))
    if key not in _STRUCT_STACKS:
        _STRUCT_STACKS[key] = ir.Symbol("adgen_value_stack", ir.with_const(t, False), "global")
    return _STRUCT_STACKS[key]


def pushed(s):
    """The value statement s pushes, when it is a push of adgen's stack; else None."""
    if isinstance(s, ir.ExprStmt) and isinstance(s.expr, ir.Call) and s.expr.func == PUSHED:
        return s.expr.args[0]
    return None


def popped(s):
    """The lvalue statement s pops into, when it is a pop of adgen's stack; else None."""
    if isinstance(s, ir.Assign) and isinstance(s.rhs, ir.Call) and s.rhs.func == POPPED:
        return s.lhs
    return None


def kept(s):
    """The lvalue statement s logs, when it is adgen's `adgen_keep`; else None."""
    if isinstance(s, ir.ExprStmt) and isinstance(s.expr, ir.Call) and s.expr.func == KEPT:
        return s.expr.args[0]
    return None


def keep(target, loc=None):
    return ir.ExprStmt(ir.Call(KEPT, [target], ir.VOID, loc), loc)


def push(value, loc=None):
    return ir.ExprStmt(ir.Call(PUSHED, [value], ir.VOID, loc), loc)


def pop(target, loc=None):
    return ir.Assign(target, ir.Call(POPPED, [], target.type, loc), loc)


def as_runtime(stmts):
    """A copy of the statements with adgen's stack and log calls back as the runtime's
    own (a function of adgen's output copied as it is into the new output)."""
    if not any(pushed(st) is not None or popped(st) is not None or kept(st) is not None
               for st in ir.stmts_walk(stmts)):
        return list(stmts)
    block = X.clone_stmts(ir.Block(list(stmts)))
    lists = [block.stmts] + [inner for st in ir.stmts_walk(block.stmts)
                             for inner in ir.nested_lists(st)]
    for stmts in lists:
        for k, st in enumerate(stmts):
            if pushed(st) is not None:
                stmts[k] = ir.Push(pushed(st), st.loc)
            elif popped(st) is not None:
                stmts[k] = ir.Pop(popped(st), st.loc)
            elif kept(st) is not None:
                stmts[k] = ir.Raw("keep", {"target": kept(st)}, st.loc)
    return block.stmts
