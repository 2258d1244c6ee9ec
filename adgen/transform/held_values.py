"""The values of one statement's subexpressions that its derivative code reads, each
evaluated once.

The chain rule reads, at every level of a nested right-hand side, the value of the level
below it: the tangent of `sin(A)` is `cos(A) * dA`, the adjoint of A gets `cos(A) * seed`.
Written out as expressions, each level evaluates again everything under it, and a value
nested d levels deep costs d * d evaluations in the generated code (and in adgen's own
cloning and printing). Here each math call of such a value, and each active piece larger
than INLINE_VALUE nodes, is evaluated once into a temporary, in the order the levels
nest (three-address form), and every partial that needs it reads the temporary.
"""
import copy

from adgen import ir
from adgen.ir import exprs as X
from adgen.ir.c_text import expr_c
from adgen.rules import LIBRARY_FUNCTIONS

# The largest active piece of a value kept written out where a partial reads it; a larger
# one is held in a temporary.
INLINE_VALUE = 16


class StatementValues:
    """The values held for one statement's derivative code, and which of its
    subexpressions read active values (both asked at every level of a nested expression
    about the levels below)."""

    def __init__(self, act, new_temp):
        self.act = act
        self.new_temp = new_temp    # type -> a fresh temporary of the generated code
        self.activity = {}          # id(x) -> (x, whether x reads an active value)
        # id(x) -> (x, an expression of its value); the C text of a math call over its
        # arguments' values -> the temporary holding it. (x kept: ids are not reused.)
        self.held = {}

    def active(self, e):
        """Whether e reads an active value."""
        if id(e) not in self.activity:
            self.activity.update(self.act.active_parts(e))
        return self.activity[id(e)][1]

    def branch(self):
        """The values for one branch of a conditional: what it holds is unknown to the
        other branch and after it."""
        other = copy.copy(self)
        other.held = dict(self.held)
        return other

    def once(self, e, out, loc):
        """A temporary holding e's value (its assignment appended to out), or e's variable
        itself."""
        if isinstance(e, ir.Ref):
            return e.sym
        t = self.new_temp(e.type if e.type is not None else ir.DOUBLE)
        out.append(ir.Assign(ir.Ref(t), X.clone(e), loc))
        return t

    def held_call(self, func, args, t):
        """The temporary holding the value of func over args (expressions of values), or
        None."""
        return self.held.get(_call_key(func, args, t))

    def value(self, e, out, loc):
        """An expression of e's value, its math calls that read active values and its
        active pieces larger than INLINE_VALUE read from temporaries, those not held yet
        evaluated into new ones (appended to out, the deepest first)."""
        known = self.held.get(id(e))
        if known is not None and known[0] is e:
            return X.clone(known[1])
        if not self.active(e):
            return X.clone(e)   # evaluated where it is read, once: no partial reads it
        if isinstance(e, ir.Call) and \
                getattr(LIBRARY_FUNCTIONS.get(e.func), "kind", None) == "math":
            args = [self.value(a, out, loc) for a in e.args]
            key = _call_key(e.func, args, e.type)
            if key not in self.held:
                self.held[key] = ir.Ref(self.once(ir.Call(e.func, args, e.type, e.loc),
                                                  out, loc))
            v = self.held[key]
        elif isinstance(e, (ir.Binary, ir.Unary, ir.Cast)) and \
                getattr(e, "op", None) not in ir.LOGICAL:
            v = copy.copy(e)
            for name in ("left", "right", "arg"):
                if isinstance(getattr(v, name, None), ir.Expr):
                    setattr(v, name, self.value(getattr(v, name), out, loc))
            if sum(1 for _ in ir.walk(v)) > INLINE_VALUE:
                v = ir.Ref(self.once(v, out, loc))
        else:
            return X.clone(e)
        self.held[id(e)] = (e, v)
        return X.clone(v)


def _call_key(func, args, t):
    """The key of a math call's held value: its C text over its arguments' (short) value
    expressions."""
    return expr_c(ir.Call(func, list(args), t))


def replace_calls(e, func, marks, value):
    """Copy of e with each call func(marks...) replaced by value."""
    if isinstance(e, ir.Call) and e.func == func and \
            [getattr(a, "sym", None) for a in e.args] == marks:
        return X.clone(value)
    e = copy.copy(e)
    for name in ("arg", "left", "right", "test", "then", "other"):
        if isinstance(getattr(e, name, None), ir.Expr):
            setattr(e, name, replace_calls(getattr(e, name), func, marks, value))
    if isinstance(e, ir.Call):
        e.args = [replace_calls(a, func, marks, value) for a in e.args]
    return e
