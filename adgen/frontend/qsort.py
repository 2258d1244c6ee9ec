"""qsort with a comparator of the program, as a sort written in C that adgen differentiates
as it does the program's own code.

`qsort(s, n, sizeof *s, cmp)` moves the numbers (or structs) of s into order; their
derivatives must move with them. The C library's qsort cannot carry them, so the call
becomes a call of a sort of the program's element type, defined here in C (an insertion
sort by swaps of neighbours, each element moved by assignments, which the derivative code
follows; the comparator called on copies of the two elements, so that what it reads
through its untyped pointers is one local each; every pair of neighbours compared, with
no early exit, so that each index has the bounds of counted loops: n(n-1)/2 comparisons), to which the comparator is
passed as any function passed to a function of the program is. qsort is not stable, so
the order it leaves equal elements in is not the library's; their values are equal.
"""
from pycparser import c_parser

from adgen import ir
from adgen.ir.c_text import type_name

ELEMENT = "adgen_sort_element"     # the element type's name while the text is read

SORT_TEXT = f"""
typedef int {ELEMENT};
static void NAME({ELEMENT} *base, long n, int (*compare)(const void *, const void *))
{{
    long i, j;
    {ELEMENT} before, after;
    for (i = 1; i < n; i++)
        for (j = i; j > 0; j--) {{
            before = base[j - 1];
            after = base[j];
            if (compare(&before, &after) > 0) {{
                base[j - 1] = after;
                base[j] = before;
            }}
        }}
}}
"""


def sorted_elements(args):
    """(the array, its element type) of a qsort call's arguments (the address of the
    array, the count, the element size, the comparator) when the comparator is a named
    function and the size is the element type's (`sizeof *s`, `sizeof(double)`,
    `sizeof s[0]`); None otherwise."""
    if len(args) != 4 or not (isinstance(args[3], ir.Const) and
                              isinstance(args[3].type.resolved(), ir.FuncPtr)):
        return None
    base = args[0]
    while isinstance(base, ir.Cast) and base.to.resolved().is_pointer:
        base = base.arg
    elem = ir.pointee(base.type) if base.type is not None else None
    size = args[2]
    while isinstance(size, ir.Cast):
        size = size.arg
    if elem is None or elem.resolved().is_void or elem.resolved().is_array or \
            not isinstance(size, ir.SizeOf):
        return None
    sized = size.of.type if isinstance(size.of, ir.Expr) else size.of
    if sized is None or _spelling(sized.resolved()) != _spelling(elem.resolved()):
        return None
    return base, elem


def element_key(elem):
    """What tells element types apart: one sort for each."""
    return _spelling(elem.resolved())


def sort_name(elem, taken):
    """The name of the sort of elements of type elem: adgen_sort_ and the type's
    spelling, made a C name, not one in taken."""
    spelled = "".join(c if c.isalnum() else "_" for c in _spelling(elem)).strip("_")
    name = "adgen_sort_" + "_".join(part for part in spelled.split("_") if part)
    while name in taken:
        name += "_"
    return name


def sort_definition(name, loc):
    """The syntax of the sort function `name` (its element type named ELEMENT), every
    node placed at loc (where the program calls qsort)."""
    ast = c_parser.CParser().parse(SORT_TEXT.replace("NAME", name), loc.file)
    fd = ast.ext[-1]
    _place(fd, _Coord(loc))
    return fd


class _Coord:
    def __init__(self, loc):
        self.file, self.line, self.column = loc.file, loc.line, loc.col


def _place(node, coord):
    node.coord = coord
    for _, child in node.children():
        _place(child, coord)


def _spelling(t):
    return type_name(ir.with_const(t, False)).strip()
