"""adgen's value stack met again in its own output, given back to it (the tangent of an
adjoint: second derivatives, docs/second-order.md).

The C front end reads the stack calls of the output as statements every analysis already
understands: `adgen_push(&v, sizeof(v))` and `adgen_push_int(e)` as `adgen_pushed(v);`,
a call that reads v, `adgen_keep(&v, sizeof(v))` as `adgen_kept(v);`, and `adgen_pop(&v, sizeof(v))` as `v = adgen_popped();`, an
assignment of v. To activity analysis the stack is one variable, STACK: what is pushed
flows into it, what is popped flows out of it. The tangent transform turns the two back
into the stack's own statements, with the tangents of floating-point values pushed and
popped beside them; any other transform meeting them refuses them."""
from adgen import ir

PUSHED = "adgen_pushed"
POPPED = "adgen_popped"
# `adgen_keep(&v, sizeof(v))`: v's value logged, put back when the log is replayed (the
# final values of the caller's memory the backward sweep overwrites)
KEPT = "adgen_kept"

# the stack, as one variable of the program (activity analysis only)
STACK = ir.Symbol("adgen_value_stack", ir.DOUBLE, "global")


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
