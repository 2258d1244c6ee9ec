"""The C text of the program's types as the output defines them.

The output declares its locals at the top and sets them later (generated.local_type): a
struct object, its copies and its shadow are set member by member, pushed and popped, so
the output's struct and union types have no `const` members, and its typedefs name no
const type (`typedef const double cdbl;` is `typedef double cdbl;`: the shadow of a `cdbl
*x` is written through). Only the member's or the typedef's own const goes (`const int n`,
`double *const buf`, the elements of `const double w[3]`); what it points to stays const
(`const double *w`). The layout is the program's, so the program passes its objects to the
derivative routines as they are."""
import copy

from pycparser import c_ast, c_generator


def _drop_own_const(decl):
    """Member or typedef decl (a copy) without its own const."""
    decl.quals = [q for q in decl.quals if q != "const"]
    node = decl.type
    while isinstance(node, c_ast.ArrayDecl):
        node = node.type
    if isinstance(node, (c_ast.TypeDecl, c_ast.PtrDecl)):
        node.quals = [q for q in node.quals if q != "const"]


class OutputTypeGenerator(c_generator.CGenerator):
    """pycparser's C generator, writing struct and union members (also of a struct defined
    inside another) and typedefs without their own const."""

    def visit_Typedef(self, n):
        n = copy.deepcopy(n)
        _drop_own_const(n)
        return super().visit_Typedef(n)

    def _generate_struct_union_enum(self, n, name):
        if name in ("struct", "union") and n.decls:
            # one copy of all members, so that declarators sharing a type still share it
            decls = copy.deepcopy(n.decls)
            for d in decls:
                _drop_own_const(d)
            n = type(n)(n.name, decls, n.coord, attributes=n.attributes)
        return super()._generate_struct_union_enum(n, name)
