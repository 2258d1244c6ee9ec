"""What the tangent and adjoint transforms share: shadow (derivative) variables and the
classification of calls."""
import contextlib

from adgen import ir
from adgen.analysis.activity import names_global
from adgen.errors import AdgenError
from adgen.ir import exprs as X, own_stack
from adgen.rules import LIBRARY_FUNCTIONS


def strip_const(t):
    """The type of a shadow: the same type with const removed at every pointer level."""
    t0 = t
    if isinstance(t0, ir.Ptr):
        return ir.Ptr(strip_const(t0.target), False)
    if isinstance(t0, ir.Arr):
        return ir.Arr(strip_const(t0.elem), t0.size, False)
    return ir.with_const(t0, False)


def writable_pointer(shadow, primal):
    """The shadow of pointer expression primal as an adjoint routine's parameter takes
    it. A pointer held in a struct's field (`p.w`, `e->kid[0]`, `p.w + 1`) has a shadow
    of the primal's type, the shadow struct having the primal's: where it points to const
    (`const double *w`), it is cast to the same pointer without const (adjoints accumulate
    there)."""
    t = primal.type.resolved() if primal.type is not None else None
    if isinstance(t, ir.Ptr) and _holds_const(t.target) and _held_in_field(primal):
        return ir.Cast(strip_const(primal.type), shadow, shadow.loc)
    return shadow


def _held_in_field(e):
    """True when pointer expression e is a struct's pointer field, an element of a
    struct's array of pointers, or such a pointer offset or cast."""
    while isinstance(e, ir.Cast) or isinstance(e, ir.Binary) and e.op in "+-":
        if isinstance(e, ir.Cast):
            e = e.arg
        else:
            lt = e.left.type.resolved() if e.left.type is not None else None
            e = e.left if isinstance(lt, (ir.Ptr, ir.Arr)) else e.right
    if isinstance(e, ir.Index):
        e = e.base
    return isinstance(e, ir.Member)


def _holds_const(t):
    """True when type t, or what it points to or holds at any level, is const."""
    r = t.resolved()
    if t.const or r.const:
        return True
    if isinstance(r, ir.Ptr):
        return _holds_const(r.target)
    if isinstance(r, ir.Arr):
        return _holds_const(r.elem)
    return False


def keep_const_ptr(t):
    """Tangent shadows of const pointers stay const (Tapenade's `const double *xd`)."""
    return t


class ShadowMap:
    """Maps primal expressions to their shadow (adjoint or tangent) expressions within one
    generated function."""

    def __init__(self, act, suffix):
        self.act = act
        self.suffix = suffix
        self.by_sym = {}           # Symbol -> shadow expression (Ref or Deref)

    def set(self, sym, expr):
        self.by_sym[sym] = expr

    def of_sym(self, sym):
        e = self.by_sym.get(sym)
        if e is None:
            raise KeyError(sym)
        return X.clone(e)

    def has(self, sym):
        return sym in self.by_sym

    def writable(self, base):
        """A shadow struct has the primal's type: memory reached through one of its const
        pointer fields is written through a cast (adjoints accumulate there)."""
        t = base.type.resolved() if base.type is not None else None
        if self.suffix == "b" and isinstance(base, ir.Member) and isinstance(t, ir.Ptr) \
                and t.target.const:
            return ir.Cast(strip_const(base.type), base, base.loc)
        return base

    def __call__(self, e):
        """The shadow of expression e (an lvalue, a pointer expression or an address)."""
        if isinstance(e, ir.Ref):
            return self.of_sym(e.sym)
        if isinstance(e, ir.Index):
            return ir.Index(self.writable(self(e.base)), e.index, _shadow_type(e.type), e.loc)
        if isinstance(e, ir.Deref):
            ptr = self(e.ptr)
            if isinstance(ptr, ir.AddrOf):
                return ptr.arg      # a shadow held in a variable of its own (`*&x` is x)
            return ir.Deref(self.writable(ptr), _shadow_type(e.type), e.loc)
        if isinstance(e, ir.Member):
            return ir.Member(self(e.base), e.field, e.arrow, e.type, e.loc)
        if isinstance(e, ir.AddrOf):
            inner = self(e.arg)
            return ir.AddrOf(inner, ir.Ptr(inner.type), e.loc)
        if isinstance(e, ir.Binary) and e.op in "+-":
            lt = e.left.type.resolved()
            if isinstance(lt, (ir.Ptr, ir.Arr)):
                b = self(e.left)
                return ir.Binary(e.op, b, e.right, ir.Ptr(ir.pointee(b.type)), e.loc)
            b = self(e.right)
            return ir.Binary(e.op, e.left, b, ir.Ptr(ir.pointee(b.type)), e.loc)
        if isinstance(e, ir.Cast):
            inner = self(e.arg)
            return ir.Cast(strip_const(e.to) if self.suffix == "b" else e.to, inner, e.loc)
        if isinstance(e, ir.Cond):
            return ir.Cond(e.test, self(e.then), self(e.other), e.type, e.loc)
        if isinstance(e, ir.Const):
            return e
        raise AdgenError("cannot form the derivative of this expression (an active pointer "
                         "from a function result or a computed address)", e.loc)


def _shadow_type(t):
    return strip_const(t) if t is not None else t


def zero_stmt(target):
    """A statement setting a shadow to zero: a number assigned 0, a pointer NULL, anything
    else (an array, a struct) cleared whole."""
    t = target.type.resolved()
    if t.is_float:
        return ir.Assign(target, X.zero(t))
    if t.is_pointer:
        return ir.Assign(target, X.null(ir.with_const(target.type, False)))
    return ir.Raw("zero_object", {"obj": target})


def shadow_global_setup(g, head, mode):
    """(statements on entry of head, statements on its exit) for the shadow global g in
    mode "reverse" or "forward": the shadow zeroed, or, for the shadow of an allocatable
    Fortran module variable (gfortran's array descriptor, allocated before the head runs),
    the primal's descriptor with a zeroed block of its size, freed on exit. The shadow of a
    global the head names is the caller's: a seed it sets is kept (an independent's
    tangent, a dependent's adjoint, consumed as a parameter's is), an adjoint of a pure
    independent set on return."""
    size = getattr(g.primal, "descriptor_size", None)
    if size is None:
        indep, dep = names_global(head.indep, g.primal), names_global(head.dep, g.primal)
        if mode == "forward":
            return ([] if indep else [zero_stmt(ir.Ref(g))]), []
        if dep:
            return [], ([] if indep else [zero_stmt(ir.Ref(g))])
        return [zero_stmt(ir.Ref(g))], []
    ptr_type = dict(g.type.resolved().sdef.fields)["base_addr"]
    elem = ir.pointee(ptr_type)
    primal_block = ir.Member(ir.Ref(g.primal), "base_addr", False, ptr_type)
    block = ir.Member(ir.Ref(g), "base_addr", False, ptr_type)
    calloc = ir.Cast(ptr_type, ir.Call("calloc", [ir.Cast(ir.SIZE_T, X.clone(size)),
                                                  ir.SizeOf(elem)], ir.Ptr(ir.VOID)))
    null = ir.Cast(ptr_type, ir.Const("0", ir.INT))
    allocated = ir.Binary("!=", primal_block, X.clone(null), ir.INT)
    on_entry = [ir.Assign(ir.Ref(g), ir.Ref(g.primal)),
                ir.Assign(block, ir.Cond(allocated, calloc, null, ptr_type))]
    on_exit = [ir.ExprStmt(ir.Call("free", [X.clone(block)], ir.VOID)),
               ir.Assign(X.clone(block), X.clone(null))]
    return on_entry, on_exit


@contextlib.contextmanager
def located(stmt):
    """An error raised while differentiating statement stmt names its line when the
    expression it was raised for has none (one adgen built)."""
    try:
        yield
    except AdgenError as exc:
        if (exc.loc is None or not exc.loc.line) and stmt.loc is not None:
            exc.loc = stmt.loc
        raise


def is_user_call(prog, call):
    g = prog.functions.get(call.func)
    return isinstance(call, ir.Call) and g is not None and \
        not getattr(g, "is_library", False)


def alloc_call(e):
    """The malloc/calloc call of `p = (T *)malloc(...)`, or None."""
    while isinstance(e, ir.Cast):
        e = e.arg
    if isinstance(e, ir.Call) and e.func in ("malloc", "calloc") and e.func in LIBRARY_FUNCTIONS:
        return e
    if isinstance(e, ir.Call) and e.func == "realloc":
        raise AdgenError("realloc is not supported: allocate a new array and copy", e.loc)
    return None


def alloc_bytes(call):
    """The number of bytes a malloc or calloc call allocates, as an expression."""
    if call.func == "malloc":
        return call.args[0]
    return ir.Binary("*", call.args[0], call.args[1], ir.SIZE_T)


def no_rule_error(name, loc):
    """A call of a library function the rule table (rules.py) does not know."""
    return AdgenError(
        f"no derivative rule for the library function '{name}': if it carries no "
        f"derivative, mark it inactive with --inactive {name}; else give its derivative "
        f"routines in a rules file (--rules)", loc)


def handle_parts(ctx, f, p):
    """The parts of head f's independent or dependent p, a struct holding pointers or a
    pointer to one (see activity.handle_fields), as (kind, path, node): node is the memory
    of a 'value' part, or what an 'array' part points to. Refused: a pointer to several
    such structs, and a head that changes the pointers, whose targets the caller's
    derivative struct mirrors."""
    from adgen.analysis.activity import find, handle_fields
    from adgen.analysis.extent import Unknown, const_value, field_expr, field_path_text
    mem, written = ctx.mem, ctx.old_memory_writes().get(f.name, set())

    def one_struct(path):
        try:        # every index used with it 0, also under conditions
            n = ctx.extents.max_index(f, p, path, anywhere=True)
        except Unknown:
            n = None
        if n is None or const_value(n) not in (0, -1):     # (-1: not used)
            raise AdgenError(f"'{field_path_text(p, path)}' may point to several structs "
                             "holding pointers: it cannot be part of an independent or a "
                             "dependent (not supported yet)", p.loc)

    if p.type.resolved().is_pointer:
        one_struct(())
    parts = []
    for kind, path in handle_fields(p, p.loc):
        e = field_expr(ir.Ref(p), path)
        if kind != "value" and find(mem.loc(e)) in written:
            raise AdgenError(f"'{ir.source_name(f)}' may change the pointer "
                             f"'{field_path_text(p, path)}': the derivative struct its caller "
                             "gives mirrors the pointers it is called with, so it cannot be "
                             "an independent or a dependent (not supported)", p.loc)
        if kind == "handle":
            one_struct(path)
        else:
            parts.append((kind, path, find(mem.loc(e) if kind == "value" else mem.target(e))))
    return parts


def row_pointer_data(ctx, f, p):
    """The memory of the numbers head f's parameter p, an array of row pointers (see
    activity.row_pointers), leads to. Refused: a head that changes the row pointers (its
    caller's derivative rows mirror the pointers it is called with), and a length given
    with --size (adgen counts no row's numbers: a row pointer array may be ragged)."""
    from adgen.analysis.activity import find
    mem, written = ctx.mem, ctx.old_memory_writes().get(f.name, set())
    name = ir.source_name(p)
    if name in ctx.options.sizes:
        raise AdgenError(f"--size {name}=...: '{name}' is an array of row pointers, whose "
                         "rows adgen does not count (they may differ in length): leave its "
                         "--size out; the derivative routines touch only the numbers the "
                         "head reads or writes", p.loc)
    node, t = mem.var(p), p.type.resolved()
    while t.is_pointer:
        node, t = find(mem.pointee(node)), t.target.resolved()
        if t.is_pointer and node in written:
            raise AdgenError(f"'{ir.source_name(f)}' may change the row pointers of "
                             f"'{name}': the derivative rows its caller gives mirror the "
                             "pointers it is called with, so it cannot be an independent "
                             "or a dependent (not supported)", p.loc)
    return node


def refuse_internal_rows(f, p):
    """A head's parameter that is an array of row pointers, no independent or dependent,
    but carrying derivatives inside the head: a derivative routine of its own would need
    rows of its own, which it cannot size."""
    from adgen.analysis.activity import row_pointers
    if row_pointers(p.type):
        name = ir.source_name(p)
        raise AdgenError(f"parameter '{name}' of '{ir.source_name(f)}': the rows it points "
                         "to carry derivatives, and a derivative routine cannot make rows of "
                         f"its own for them (not supported yet); name '{name}' as an "
                         "independent or a dependent, so that its caller gives the "
                         "derivative rows", p.loc)


def refuse_internal_pointer_fields(act, f, p):
    """A head's parameter that is no independent or dependent but carries derivatives
    inside the head gets adjoint or tangent storage of the routine's own; refused when
    that storage would have to include what the struct's pointer fields point to."""
    from adgen.analysis.extent import field_path_text
    field = act.shadowed_pointer_field(p)
    if field is not None and not _set_before_use(f.body.stmts, p, field):
        name = ir.source_name(p)
        raise AdgenError(f"parameter '{name}' of '{ir.source_name(f)}': the memory "
                         f"its field '{field}' points to carries derivatives, and a derivative "
                         "routine cannot make storage for it (not supported yet); name "
                         f"'{name}' as an independent (its caller then gives the derivative "
                         f"struct, whose '{field_path_text(p, tuple(field.split('.')))}' "
                         "points to storage for them) or pass that array as a parameter of "
                         "its own", p.loc)


def _set_before_use(stmts, p, field):
    """True when every path through stmts sets p's field `field` (`p->v = ...`, `p.v =
    ...`) from what does not involve p before anything else mentions p: the routine then
    sets that field's shadow itself before anything reads it."""
    from adgen.analysis.first_access import SET, first_access
    from adgen.ir.c_text import expr_c
    targets = {f"{p.name}->{field}", f"{p.name}.{field}", f"(*{p.name}).{field}"}

    def reads(exprs):
        return any(isinstance(e, ir.Ref) and e.sym is p for x in exprs for e in ir.walk(x))

    def sets(st):
        return isinstance(st, ir.Assign) and expr_c(st.lhs) in targets and \
            not reads([st.rhs])
    return first_access(stmts, sets, reads) == SET


def unknown_function_error(name, loc):
    if name in (own_stack.PUSHED, own_stack.POPPED, own_stack.KEPT):
        return AdgenError("adgen's own output uses its value stack here: only its tangent "
                          "(--forward) is supported (docs/second-order.md)", loc)
    if name.startswith(("MPI_", "PMPI_")):
        return AdgenError(f"MPI routine '{name}' is not supported by adgen yet "
                          "(docs/mpi.md says which are)", loc)
    return AdgenError(
        f"call to unknown external function '{name}': adgen cannot see its body. Add its "
        f"source file to the command line, or, if it carries no derivative, mark it "
        f"inactive with --inactive {name}", loc)


def increment(lhs, rhs):
    """(sign, rest) when rhs is `lhs + rest`, `rest + lhs` or `lhs - rest`."""
    if isinstance(rhs, ir.Binary) and rhs.op in "+-":
        if X.same_text(rhs.left, lhs):
            return (1 if rhs.op == "+" else -1), rhs.right
        if rhs.op == "+" and X.same_text(rhs.right, lhs):
            return 1, rhs.left
    return None


def source_name(f):
    """The name a function's copy was made from (see transform/clone.py), else its own."""
    return getattr(f, "clone_of", f.name)


def base_symbol(e):
    """The variable whose memory an lvalue or a pointer expression reaches (p for p[i].f,
    *p, &p[i], p + 1, (T *)p), or None."""
    while True:
        if isinstance(e, (ir.Index, ir.Member)):
            e = e.base
        elif isinstance(e, ir.Deref):
            e = e.ptr
        elif isinstance(e, (ir.Cast, ir.AddrOf)):
            e = e.arg
        elif isinstance(e, ir.Binary):
            e = e.left if e.left.type.resolved().is_pointer or \
                e.left.type.resolved().is_array else e.right
        else:
            return e.sym if isinstance(e, ir.Ref) else None


def ad_temp(name, t):
    """A temporary of the generated code (is_ad: none of the program's)."""
    s = ir.Symbol(name, ir.with_const(t, False), "temp")
    s.is_ad = True
    return s


class Names:
    """Unique names inside one generated function."""

    def __init__(self, taken):
        self.taken = set(taken)
        # base -> the number of the last name made from it: the names below it are taken
        # (a function of a thousand temporaries does not try them all again)
        self.last = {}

    def fresh(self, base):
        name, k = base, 1
        if name in self.taken:
            k = self.last.get(base, 1)
        while name in self.taken:
            k += 1
            name = f"{base}{k}"
        self.taken.add(name)
        self.last[base] = k
        return name

    def release(self, name):
        """name is free again."""
        self.taken.discard(name)
        self.last.clear()


def unless_null(addr, stmts):
    """stmts, on the memory at addr, under a test that its pointer is not null where it may
    be: a Fortran OPTIONAL dummy argument's, which a call may leave out."""
    base = base_symbol(addr)
    if not stmts or base is None or not getattr(base, "optional", False):
        return stmts
    return [ir.If(ir.Binary("!=", ir.Ref(base), X.null(base.type), ir.INT), ir.Block(stmts))]
