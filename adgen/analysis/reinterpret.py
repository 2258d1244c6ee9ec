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
Numerical Recipes' nrutil: no value is read) and the items of a WRITE statement in C that
f2c translated (`do_lio(&c__5, &c__1, (char *)&x, ...)`: printed, not computed with) are
left alone.

The address of a struct's field (`&p.x`, `&s.v[1]`) has the same trouble when what is
reached through it goes past the field, into the fields after it (`(&p.x)[2]` for p.z, a
struct of doubles used as an array, `memcpy(&s.a, src, 3 * sizeof(double))`): the memory
model sees the field only. Where adgen cannot show the access stays within the field, it
is an error naming the field.
"""
from adgen.analysis.activity import find
from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.ir.c_text import expr_c, type_name
from adgen.rules import LIBRARY_FUNCTIONS


def check_reinterpretations(prog, mem, act, functions):
    """Raises AdgenError at the first pointer cast in functions that reads or writes
    active numbers as numbers of another type."""
    for name in functions:
        f = prog.functions[name]
        for st in ir.stmts_walk(f.body.stmts):
            for top in ir.stmt_exprs(st):
                freed = {id(a) for e in ir.walk(top)
                         if isinstance(e, ir.Call) and _reads_no_value(prog, e)
                         for a in e.args}
                for e in ir.walk(top):
                    if isinstance(e, ir.Cast) and id(e) not in freed:
                        _check_cast(e, mem, act, st)
                _check_field_addresses(prog, f, top, mem, act, st)


def _reads_no_value(prog, call):
    """Whether call reads the memory its pointer arguments reach as no number, whatever
    their type: free, and the library's output routines (libf2c's WRITE items are the
    addresses of the values as char *: printed, not computed with)."""
    lib = LIBRARY_FUNCTIONS.get(call.func)
    f = prog.functions.get(call.func)
    return call.func == "free" or lib is not None and lib.kind == "effect" and \
        (f is None or getattr(f, "is_library", False))


def field_room(ptr):
    """(the field, how many elements from ptr on are the field's) when ptr is the address
    of a struct's field (`&s.a`: 1, `&s.v`, `s.v`: the numbers of v) or of an element of
    an array field (`&s.v[i]`: those from i on, None when i or v's length is not a
    constant); None for another pointer."""
    t = ptr.type.resolved() if ptr.type is not None else None
    if isinstance(ptr, ir.Member) and isinstance(t, ir.Arr):       # an array field, decayed
        return ptr, _numbers_in(t)
    if not isinstance(ptr, ir.AddrOf):
        return None
    a = ptr.arg
    if isinstance(a, ir.Member):
        at = a.type.resolved()
        return a, (_numbers_in(at) if isinstance(at, ir.Arr) else 1)
    if isinstance(a, ir.Index) and isinstance(a.base, ir.Member) and \
            isinstance(a.base.type.resolved(), ir.Arr):
        arr = a.base.type.resolved()
        per = _numbers_in(arr.elem.resolved()) if arr.elem.resolved().is_array else 1
        n, i = _int(arr.size), _int(a.index)
        room = None if None in (n, i, per) or not 0 <= i < n else (n - i) * per
        return a.base, room
    return None


def refuse_past_field(ptr, field, how, loc):
    """The error for a pointer to a struct's field through which how (`is indexed`,
    `memcpy copies 3 elements`) may reach past the field."""
    raise AdgenError(f"'{expr_c(ptr)}' is the address of field '{field.field}' of a struct, "
                     f"and {how}: adgen cannot show that this stays within '{field.field}', "
                     "and it keeps a struct's fields apart, so the derivatives of the fields "
                     "after it would not follow (name each field, or make the numbers one "
                     "array field and index that)", loc)


def _check_field_addresses(prog, f, top, mem, act, st):
    """Refuses the address of a field of an active struct that is one number (in top,
    an expression of statement st of function f) indexed past the field (or by what is
    not a constant), stepped, handed to a function of the program or set to a pointer
    variable that uses it so: a struct of numbers used as an array."""
    parent = {id(c): e for e in ir.walk(top) for c in e.children()}
    for e in ir.walk(top):
        found = field_room(e) if isinstance(e, ir.AddrOf) else None
        if found is None:
            continue
        field, room = found
        if field.type.resolved().is_array:
            # the address of an array field, or of one of its elements, is used as an
            # array, as the program's own indexing of the field is: taken to stay in it
            continue
        pointee = e.arg.type.resolved()
        if room is not None and isinstance(pointee, ir.Arr):
            room //= _numbers_in(pointee)           # (`&s.m[1]` steps over rows)
        up = parent.get(id(e))
        how = None
        if isinstance(up, ir.Index) and up.base is e:
            if not _index_within(_int(up.index), room):
                how = f"it is indexed by '{expr_c(up.index)}'"
        elif isinstance(up, ir.Binary) and up.op in ("+", "-"):
            how = "it is stepped"
        elif isinstance(up, ir.Call) and \
                not _param_within(prog, up.func, _arg_position(up, e), room, set()):
            how = f"{up.func} is handed it and may reach past the field"
        elif up is None and isinstance(st, ir.Assign) and top is st.rhs and \
                isinstance(st.lhs, ir.Ref) and \
                not _symbol_within(prog, f, st.lhs.sym, room, set()):
            how = f"'{st.lhs.sym.name}' is set to it and used past the field"
        if how is None or not act.needs_shadow(_struct_node(field, mem)):
            continue
        refuse_past_field(e, field, how, e.loc or getattr(up, "loc", None) or st.loc)


def _param_within(prog, fname, position, room, seen):
    """True when function fname uses its parameter at position only within its first
    room elements (see _symbol_within)."""
    f = prog.functions.get(fname)
    if f is None or not f.has_body or position is None or position >= len(f.params):
        return True         # (a library function: its rule says what it reads)
    return _symbol_within(prog, f, f.params[position], room, seen)


def _symbol_within(prog, f, sym, room, seen):
    """True when function f uses the pointer variable sym only within its first room
    elements (room None: the first only): `*p`, `p->x`, `p[k]` for a constant k below
    room, handing it to a function doing so; setting it is no use."""
    if (f.name, sym) in seen:
        return True
    seen.add((f.name, sym))
    for st in ir.stmts_walk(f.body.stmts):
        for top in ir.stmt_exprs(st):
            if isinstance(st, ir.Assign) and top is st.lhs and isinstance(top, ir.Ref):
                continue
            parent = {id(c): e for e in ir.walk(top) for c in e.children()}
            for e in ir.walk(top):
                if not (isinstance(e, ir.Ref) and e.sym is sym):
                    continue
                up = parent.get(id(e))
                if isinstance(up, ir.Deref) or isinstance(up, ir.Member) and up.arrow:
                    continue                                    # (`p->x`: *p's)
                if isinstance(up, ir.Index) and up.base is e and \
                        _index_within(_int(up.index), room):
                    continue
                if isinstance(up, ir.Call) and \
                        _param_within(prog, up.func, _arg_position(up, e), room, seen):
                    continue
                return False
    return True


def _index_within(k, room):
    return k == 0 or k is not None and room is not None and 0 <= k < room


def _arg_position(call, arg):
    return next((k for k, a in enumerate(call.args) if a is arg), None)


def _struct_node(field, mem):
    """The memory of the struct whose field is `field` (a Member)."""
    return mem.target(field.base) if field.arrow else mem.loc(field.base)


def _numbers_in(t):
    """How many numbers an array type of constant extents holds; None otherwise."""
    n = 1
    while isinstance(t, ir.Arr):
        extent = _int(t.size)
        if extent is None:
            return None
        n, t = n * extent, t.elem.resolved()
    return n


def _int(e):
    return X.int_value(e) if e is not None else None


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
