"""Compound literals (C99): `(double[]){x, 2.0 * x, 3.0}`, `(P){.n = 3, .a = x}`.

A compound literal is an unnamed object of its type, with automatic storage in the block
around it, set from its list each time the expression is evaluated. It is lowered to a
local of a fresh name (the output declares every local at the top of the function, so
it lives as long as the block's object would), set by assignments among the statements
that run before the expression (`pre`: where the literal is in a loop condition or in a
branch of `?:`, `&&` or `||`, the front end runs those statements just where the
expression is evaluated), and the expression reads the local in its place. Every element
and field is set, those the list leaves out to zero, so derivatives of earlier values of
the local never leak into a later evaluation.
"""
from pycparser import c_ast

from adgen import ir
from adgen.errors import AdgenError


def lower_compound_literal(front, node, scope, pre, loc):
    """The local standing for the compound literal `node` (a reference to it), its
    assignments appended to pre. `front` is the CFront converting the function."""
    if front.func is None:
        # a file-scope initializer, a --size text or a rule: no body to set it in
        raise AdgenError("a compound literal outside a function body is not supported", loc)
    t = front.type_of(node.type, scope)
    r = t.resolved()
    if isinstance(r, ir.Arr) and isinstance(r.elem.resolved(), ir.Prim) and \
            any(isinstance(x, c_ast.Constant) and x.type == "string" for x in node.init.exprs):
        raise AdgenError("a compound literal of characters set from a string literal is "
                         "not supported", loc)
    if isinstance(r, ir.Arr) and r.size is None:
        t = ir.Arr(r.elem, ir.Const(
            str(front.list_length(r.elem, node.init.exprs, scope, loc)), ir.INT), r.const)
    if isinstance(t.resolved(), ir.FuncPtr):
        raise AdgenError("a compound literal of a function pointer type is not supported", loc)
    if isinstance(t.resolved(), ir.Struct) and t.resolved().sdef.is_union:
        raise AdgenError("unions are not supported (they can reinterpret active values)", loc)
    local = front.hidden_local("literal", _without_const(t), loc)
    front.initialise(ir.Ref(local, loc), local.type, node.init, scope, pre, loc)
    return ir.Ref(local, loc)


def _without_const(t):
    """t without `const`, on itself and on its elements: the local is set by assignments
    (`(const double[]){a, b}` reads the same)."""
    r = t.resolved()
    if isinstance(r, ir.Arr) and (t.const or r.const or _without_const(r.elem) is not r.elem):
        return ir.Arr(_without_const(r.elem), r.size)
    return ir.with_const(t, False)
