"""Defined operators: `interface operator(-)` (or `operator(.cross.)`) with the module
procedures that implement it, applied to values of a derived type.

Before a statement is lowered, each operation whose operator the scope has an interface
for, and whose operands one of its specific procedures takes (by type, kind and rank),
becomes a reference of that function: `cross(q - p, r - p)` is read as
`cross(vsub(q, p), vsub(r, p))`. The statement is rewritten in a copy, so that a procedure
read again (its signature first, internal procedures more than once) finds it as written.
"""
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_helpers import copied_tree, f2003, operator_key, rewrite_in_place

# the parse-tree nodes of operations: binary (left, op, right) and unary (op, operand)
_BINARY = ("Expr", "Level_2_Expr", "Add_Operand", "Mult_Operand", "Level_3_Expr",
           "Level_4_Expr", "And_Operand", "Or_Operand", "Equiv_Operand")
_UNARY = ("Level_2_Unary_Expr", "Level_1_Expr", "Not_Operand")


def with_defined_operators(scope, node):
    """The statement node with its operations on derived types that defined operators
    implement replaced by function references (a copy), or node itself when it has none."""
    operators = {g for g in scope.generics if g.startswith("operator(")}
    if not operators or not any(_operator(n) in operators for n in _operations(node)):
        return node
    node = copied_tree(node)
    rewrite_in_place(node, lambda n: _function_reference(scope, n, operators))
    return node


def _operations(node):
    from fparser.two.utils import walk
    return [n for n in walk(node) if type(n).__name__ in _BINARY + _UNARY]


def _operator(n):
    """The generic name of the operator of operation n, `operator(-)`."""
    items = getattr(n, "items", ())
    cls = type(n).__name__
    op = items[1] if cls in _BINARY and len(items) == 3 else \
        items[0] if cls in _UNARY and len(items) == 2 else None
    return operator_key(op) if isinstance(op, str) else None


def _function_reference(scope, n, operators):
    """The reference of the specific procedure of a defined operator that operation n
    means, or None (an operation on numbers, or one no specific takes: refused when it
    is lowered)."""
    key = _operator(n)
    if key not in operators:
        return None
    operands = [x for x in n.items if not isinstance(x, str)]
    if not any(scope.argument_kind(x)[1].is_struct for x in operands):
        return None
    found = [f for f in (scope.known_procedure(f) if isinstance(f, str) else f
                         for f in scope.generics[key])
             if f is not None and scope.arguments_fit(f, operands)]
    if len(found) != 1:
        return None
    name = _visible_name(scope, found[0])
    F = f2003()
    ref = F.Expr(f"({name}({', '.join(str(x) for x in operands)}))")
    T.replace_data_refs(ref)
    ref.item = getattr(n, "item", None)
    return ref


def _visible_name(scope, f):
    """A name by which scope's statements reference f: its own, or one made for it."""
    if scope.known_procedure(f.name) is f:
        return f.name
    scope.imported_procs = getattr(scope, "imported_procs", {})
    name, k = f.name, 1
    while scope.known_procedure(name) is not None or name in scope.vars:
        k += 1
        name = f"{f.name}_{k}"
    scope.imported_procs[name] = f
    return name
