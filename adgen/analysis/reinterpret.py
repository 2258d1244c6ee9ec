"""Reading or writing active numbers as numbers of another type, through a pointer cast.

`*(int32_t *)&x` reads the bits of the float x as an integer (a fast inverse square root,
a hash of a value, a byte-wise copy through `unsigned char *`). The value that comes out
has no derivative to carry, so the derivative of anything computed from it would be
silently zero: where the memory is active, that is an error naming the cast, as a union
is. So is a view of active numbers as a struct or of a struct as numbers (`(V3 *)c` for
interleaved x, y, z; `(double *)v` of a struct of doubles; the same through `void *`):
the memory model keeps a struct's fields apart from numbers reached otherwise, so the
derivatives would not follow the view. Casts between spellings of one type (`doublereal
*` and `double *`, a row of a 2-D array as `double *`), to `void *`, of memory that
carries no derivative, and the pointer handed to free (`free((char *)(v + nl - 1))`,
Numerical Recipes' nrutil: no value is read) are left alone.
"""
from adgen.analysis.activity import find
from adgen import ir
from adgen.errors import AdgenError
from adgen.ir.c_text import expr_c, type_name


def check_reinterpretations(prog, mem, act, functions):
    """Raises AdgenError at the first pointer cast in functions that reads or writes
    active numbers as numbers of another type."""
    for name in functions:
        f = prog.functions[name]
        for st in ir.stmts_walk(f.body.stmts):
            for top in ir.stmt_exprs(st):
                freed = {id(a) for e in ir.walk(top)
                         if isinstance(e, ir.Call) and e.func == "free" for a in e.args}
                for e in ir.walk(top):
                    if isinstance(e, ir.Cast) and id(e) not in freed:
                        _check_cast(e, mem, act, st)


def _check_cast(cast, mem, act, st):
    _check_view(cast, mem, act, st)
    to = _number_pointee(cast.to)
    arg_type = cast.arg.type.resolved() if cast.arg.type is not None else None
    origin = _number_pointee(arg_type) if isinstance(arg_type, (ir.Ptr, ir.Arr)) else None
    if to is None or origin is None or to.name == origin.name:
        return
    if not (to.is_float or origin.is_float):
        return          # integers of other widths: no derivative either way
    if not isinstance(cast.arg, (ir.Ref, ir.AddrOf, ir.Index, ir.Member, ir.Deref,
                                 ir.Binary, ir.Cast)):
        return          # (a call's result: fresh memory, no node to ask)
    if not act.needs_shadow(mem.target(cast.arg)):
        return
    loc = cast.loc or getattr(cast.arg, "loc", None) or st.loc
    written = cast.to.resolved()
    written = written.target if isinstance(written, ir.Ptr) else to
    raise AdgenError(f"'{expr_c(cast)}' reads or writes active {origin.name} values as "
                     f"{type_name(written).strip()}: their derivatives cannot follow a "
                     "reinterpretation of their bits (compute the value with arithmetic, "
                     "or differentiate around it with a derivative rule)", loc)


def _check_view(cast, mem, act, st):
    """Refuses a cast that views active numbers as a struct, a struct as numbers, or one
    struct as another."""
    to = _pointee(cast.to)
    named = cast.to.resolved()         # (what the message calls it: `V3`, a typedef)
    named = named.target if isinstance(named, ir.Ptr) else to
    arg_type = cast.arg.type.resolved() if cast.arg.type is not None else None
    origin = _pointee(arg_type) if isinstance(arg_type, (ir.Ptr, ir.Arr)) else None
    if to is None or origin is None or to.is_void or not isinstance(
            cast.arg, (ir.Ref, ir.AddrOf, ir.Index, ir.Member, ir.Deref, ir.Binary,
                       ir.Cast)):
        return
    node = find(mem.target(cast.arg))
    # through `void *`, what the memory is: a struct where the code reads fields of it
    origin_struct = origin.sdef if origin.is_struct else \
        (True if origin.is_void and node.fields else None)
    to_struct = to.sdef if to.is_struct else None
    if origin.is_void and to_struct is not None and origin_struct is True or \
            origin_struct is to_struct or not act.needs_shadow(node):
        return
    loc = cast.loc or getattr(cast.arg, "loc", None) or st.loc
    raise AdgenError(f"'{expr_c(cast)}' views active memory "
                     f"{'of a struct' if origin_struct else 'of numbers'} as "
                     f"{type_name(named).strip() if to_struct else 'numbers'}: adgen keeps a "
                     "struct's fields apart from numbers reached otherwise, so the "
                     "derivatives would not follow the view (index the numbers, or use "
                     "the struct's fields)", loc)


def _pointee(t):
    """What a pointer (or array) type points to, through arrays, resolved; None for
    another type."""
    t = t.resolved() if t is not None else None
    if not isinstance(t, (ir.Ptr, ir.Arr)):
        return None
    return ir.array_element(t.target if isinstance(t, ir.Ptr) else t.elem)


def _number_pointee(t):
    """The number type a pointer type points to (through arrays of numbers), or None
    for a pointer to anything else (void, a struct, a pointer)."""
    t = t.resolved() if t is not None else None
    if not isinstance(t, (ir.Ptr, ir.Arr)):
        return None
    inner = ir.array_element(t.target if isinstance(t, ir.Ptr) else t.elem)
    if isinstance(inner, ir.Prim) and not inner.is_void:
        return inner
    return None
