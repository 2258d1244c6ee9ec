"""The operands of an expression in fparser's parse tree (array_refs): the names, part
references and array inquiries that array syntax takes element by element; shared by the
Fortran front end's modules, above fortran_types (whose component names it tells apart)."""
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_helpers import (ALONG, CALL_NODES, INQUIRY, REDUCTIONS,
                                            array_inquiry, call_arguments, f2003,
                                            keyword_of, name_of, visit_nodes)


def array_refs(node, is_array=None):
    """Names and part references inside an expression (candidates for array operands),
    and the array-valued inquiries (shape(a)); the arrays whose bounds an inquiry reads
    are no operands, nor is the name of a part reference (x in x(i): the element is).

    With is_array (a predicate on names), only the operands of the expression taken
    element by element: not the arguments of a reduction (sum(v) is a scalar) or of a
    function call (a part reference whose name is no array)."""
    F = f2003()
    out = []

    def look(n):
        if isinstance(n, F.Intrinsic_Function_Reference):
            name = name_of(n.items[0])
            if name in INQUIRY:
                if array_inquiry(n):
                    out.append(n)
                return False
            if is_array is not None and name in ("spread", "reshape", "transpose", "pack",
                                                 "matmul"):
                out.append(n)       # its shape is not its source's
                return False
            if is_array is not None and name in REDUCTIONS:
                if name in ALONG and _has_dim(n) or \
                        name in ("maxloc", "minloc") and not _has_dim(n):
                    out.append(n)       # an array result when the array's rank is 2 or more
                return False
        if isinstance(n, F.Part_Ref) or type(n).__name__ in CALL_NODES:
            out.append(n)
            if is_array is None or is_array(name_of(n.items[0])):
                visit_nodes(n.items[1], look)       # the subscripts (or a call's arguments)
            return False
        if isinstance(n, F.Name):
            out.append(n)
            return not T.is_component_name(n)       # (one operand, whatever its parts)
        return True

    visit_nodes(node, look)
    return out


def _has_dim(node):
    """Whether a call of sum, product, maxval or minval gives DIM (second by position, or
    by keyword)."""
    args = call_arguments(node)
    return any(keyword_of(a) == "dim" for a in args) or \
        len(args) >= 2 and keyword_of(args[1]) is None
