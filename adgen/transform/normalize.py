"""Normalisation: rewrite each function into the simpler shape the transforms expect.

- Calls to user functions are lifted out of expressions into statements of their own
  (`t = f(x) + 1` becomes `t1 = f(x); t = t1 + 1`), because a differentiated call is a
  statement in both sweeps. Functions that cannot carry derivatives (integer helpers) stay
  inline.
- A floating-point by-value argument that is not a variable is computed into a temporary,
  so the callee's adjoint has somewhere to go.
- A value nested deeper than MAX_DEPTH is computed in pieces of PIECE_DEPTH levels, each
  into a temporary: the derivative of a deep product or chain of math calls needs the
  value of every level, and written out in full at each it would grow with the square of
  the depth.
- memcpy, memmove and memset become loops over elements, which the transforms
  understand (memmove's upward or downward, as the blocks overlap); memset of structs
  sets every field to zero, one assignment each.
- For the reverse mode, `structure` removes break, continue and early return, replacing
  them with flags, so every construct has one entry and one exit and can be reversed.
"""
from adgen import ir
from adgen.analysis.reinterpret import field_room, refuse_past_field
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.ir.c_text import expr_c, type_name
from adgen.rules import LIBRARY_FUNCTIONS
from adgen.transform.common import Names


MAX_DEPTH = 64
PIECE_DEPTH = 32



def _truth(e):
    """e != 0 as C's && and || test it (an int 0 or 1)."""
    if isinstance(e, ir.Binary) and (e.op in ir.COMPARISONS or e.op in ir.LOGICAL) or \
            isinstance(e, ir.Unary) and e.op == "!":
        return e
    return ir.Binary("!=", e, ir.Const("0", ir.INT), ir.INT, e.loc)

class Temps:
    """Fresh local variables of one function, named so they clash with nothing."""

    def __init__(self, func, taken):
        self.func = func
        self.names = Names(taken)

    def new(self, base, t, loc=None):
        name = self.names.fresh(base)
        sym = ir.Symbol(name, ir.with_const(t, False), "temp", loc)
        self.func.locals.append(sym)
        return sym


def taken_names(prog, func):
    names = {s.name for s in func.params} | {s.name for s in func.locals}
    names |= ir.program_names(prog)
    return names


def user_function(prog, name):
    f = prog.functions.get(name)
    return f if f is not None and not getattr(f, "is_library", False) else None


def trivially_inactive(prog, f, seen=None):
    """A function that can never carry a derivative nor change memory: integer arguments and
    result, no pointer arguments, no writes to globals. It may stay inside expressions."""
    seen = seen or set()
    if f.name in seen:
        return True
    seen.add(f.name)
    if not f.has_body:
        return False
    if ir.base_float(f.ret) or f.ret.resolved().is_pointer or f.ret.resolved().is_struct:
        return False
    for p in f.params:
        t = p.type.resolved()
        if t.is_float or t.is_pointer or t.is_array or t.is_struct:
            return False
    for s in ir.stmts_walk(f.body.stmts):
        if isinstance(s, ir.Assign) and getattr(ir.root_symbol(s.lhs), "kind", None) == "global":
            return False
        for e in ir.stmt_exprs(s):
            for sub in ir.walk(e):
                if isinstance(sub, ir.Ref) and sub.sym.kind == "global" and \
                        ir.base_float(sub.sym.type):
                    return False
                if isinstance(sub, ir.Call):
                    g = user_function(prog, sub.func)
                    if g is not None and not trivially_inactive(prog, g, seen):
                        return False
    return True


# ------------------------------------------------------------------ call lifting

class Normalizer:
    def __init__(self, prog, func):
        self.prog = prog
        self.func = func
        self.temps = Temps(func, taken_names(prog, func))

    def run(self):
        entry = self.copy_changed_struct_params()
        self.func.body = ir.Block(self.stmts(entry + self.func.body.stmts),
                                  self.func.body.loc)

    def copy_changed_struct_params(self):
        """A struct passed by value that the function changes, or a pointer parameter it
        moves (f2c's `--x;` before one-based loops), becomes a local copy of a new
        parameter of the same name, set at entry: the function's changes (and their
        adjoints) stay in its copy, the caller's value and adjoint come in and go back
        through the parameter, which nothing writes. So the derivative code's own accesses
        to the caller's memory (zeroing adjoints, final values given back) go through the
        pointer the caller passed."""
        f = self.func
        entry = []
        for i, p in enumerate(f.params):
            t = p.type.resolved()
            if not (t.is_struct and writes_into(f.body.stmts, p) or
                    isinstance(t, ir.Ptr) and moves_pointer(f.body.stmts, p)):
                continue
            arg = self.temps.new(p.name + "_copy", p.type, p.loc)
            f.locals.remove(arg)
            arg.kind = "param"
            # the parameter keeps its name (a head's lists and the derivative routine's
            # signature name it), the copy takes the new one
            arg.name, p.name = p.name, arg.name
            f.params[i] = arg
            p.kind = "local"
            f.locals.append(p)
            entry.append(ir.Assign(ir.Ref(p, p.loc), ir.Ref(arg, p.loc), p.loc))
        return entry

    def stmts(self, stmts):
        from adgen.transform.checkpoint import call_mode_pragma
        out = []
        directive = None    # a call's mode, waiting for the statement of its call
        for s in stmts:
            if call_mode_pragma(s) is not None:
                directive = s
                continue
            done = self.stmt(s)
            if directive is not None:
                # the mode is the statement's own call's, not that of a call lifted out of
                # its arguments (f(x, g(y)): g's call now comes first)
                at = _own_call_position(s, done)
                done = done[:at] + [directive] + done[at:]
                directive = None
            out.extend(done)
        if directive is not None:
            out.append(directive)
        return out

    def needs_lift(self, call):
        f = user_function(self.prog, call.func)
        return f is not None and not trivially_inactive(self.prog, f)

    def stmt(self, s):
        pre = []
        if isinstance(s, ir.Assign) and s.lhs.type.resolved().is_struct and \
                ir.is_lvalue(s.rhs):
            return self.stmts(split_struct_copy(s.lhs, s.rhs, s.loc, self.temps))
        if isinstance(s, ir.Assign):
            if isinstance(s.rhs, ir.Call) and self.needs_lift(s.rhs):
                s.rhs.args = [self.arg(a, p, pre) for a, p in
                              zip(s.rhs.args, self.params_of(s.rhs))]
                rt = s.rhs.type.resolved()
                if rt.is_struct and ir.holds_pointers(rt):
                    # a struct holding pointers comes back into a temporary of its own,
                    # copied field by field: each pointer field's shadow follows it (and
                    # is kept and brought back with it where the lhs is overwritten),
                    # while the backward sweep clears the temporary's adjoint whole
                    t = self.temps.new(s.rhs.func + "_result", s.rhs.type, s.loc)
                    pre.append(ir.Assign(ir.Ref(t, s.loc), s.rhs, s.loc))
                    lhs = self.lift(s.lhs, pre)
                    return pre + self.stmts(split_struct_copy(lhs, ir.Ref(t, s.loc), s.loc,
                                                              self.temps))
            else:
                s.rhs = self.split_deep(self.lift(s.rhs, pre), pre)
            s.lhs = self.lift(s.lhs, pre)
            return pre + [s]
        if isinstance(s, ir.ExprStmt):
            call = s.expr
            if isinstance(call, ir.Call) and call.func in ("memcpy", "memmove", "memset") \
                    and call.func in LIBRARY_FUNCTIONS and user_function(self.prog, call.func) is None:
                return self.memory_loop(call, s.loc)
            if isinstance(call, ir.Call) and self.needs_lift(call):
                call.args = [self.arg(a, p, pre) for a, p in zip(call.args, self.params_of(call))]
                return pre + [s]
            s.expr = self.lift(call, pre)
            return pre + [s]
        if isinstance(s, ir.Block):
            s.stmts = self.stmts(s.stmts)
            return [s]
        if isinstance(s, ir.If):
            s.test = self.lift(s.test, pre)
            s.then.stmts = self.stmts(s.then.stmts)
            if s.other:
                s.other.stmts = self.stmts(s.other.stmts)
            return pre + [s]
        if isinstance(s, ir.For):
            s.init = self.stmts(s.init)
            s.step = self.stmts(s.step)
            s.body.stmts = self.stmts(s.body.stmts)
            if s.test is not None:
                test_pre = []
                s.test = self.lift(s.test, test_pre)
                if test_pre or any(not isinstance(x, ir.Assign) for x in s.init + s.step):
                    return self.for_as_while(s, test_pre)
            return [s]
        if isinstance(s, (ir.While, ir.DoWhile)):
            s.body.stmts = self.stmts(s.body.stmts)
            test_pre = []
            s.test = self.lift(s.test, test_pre)
            if test_pre:
                if isinstance(s, ir.DoWhile):
                    X.continue_through(s.body.stmts, test_pre)     # (a continue tests)
                    s.body.stmts += test_pre
                    return [s]
                # while (c(f())) body  ->  while (1) { t = f(); if (!c) break; body }
                brk = ir.If(ir.Unary("!", s.test, ir.INT), ir.Block([ir.Break(s.loc)]), None,
                            s.loc)
                s.body.stmts = test_pre + [brk] + s.body.stmts
                s.test = ir.Const("1", ir.INT)
            return [s]
        if isinstance(s, ir.Return) and s.value is not None:
            s.value = self.split_deep(self.lift(s.value, pre), pre)
            return pre + [s]
        return [s]

    def split_deep(self, e, pre):
        """e, when it is nested deeper than MAX_DEPTH, with its floating-point arithmetic
        and math calls PIECE_DEPTH levels deep computed first, each into a temporary (in
        pre, innermost first). What is evaluated only under a condition (`?:`, `&&`, `||`)
        stays where it is."""
        if e is None or _float_depth(e) <= MAX_DEPTH:
            return e

        def visit(x):       # (x with its deep parts taken out, its depth after that)
            if not _combines_floats(x):
                return x, 1
            depths = [0]

            def operand(sub):
                sub, d = visit(sub)
                depths.append(d)
                return sub

            x = X.map_children(x, operand)
            if max(depths) + 1 < PIECE_DEPTH:
                return x, max(depths) + 1
            t = self.temps.new("part", x.type, x.loc)
            pre.append(ir.Assign(ir.Ref(t, x.loc), x, x.loc))
            return ir.Ref(t, x.loc), 1

        return visit(e)[0]

    def for_as_while(self, s, test_pre):
        body = list(s.body.stmts)
        X.continue_through(body, s.step)       # a continue runs the step, then the test
        if s.test is not None:
            body = test_pre + [ir.If(ir.Unary("!", s.test, ir.INT),
                                     ir.Block([ir.Break(s.loc)]), None, s.loc)] + body
        loop = ir.While(ir.Const("1", ir.INT), ir.Block(body + s.step), s.loc)
        return s.init + [loop]

    def params_of(self, call):
        f = user_function(self.prog, call.func)
        return f.params if f is not None else [None] * len(call.args)

    def arg(self, a, param, pre):
        """A call argument: lifted calls inside; a by-value number that is not a plain
        variable into a temporary (the callee may overwrite the memory it was read from,
        and its adjoint needs somewhere to go)."""
        a = self.lift(a, pre)
        t = param.type.resolved() if param is not None else None
        if t is not None and (t.is_float or t.is_int) and not isinstance(a, ir.Ref):
            if isinstance(a, ir.Const):
                return a
            t = self.temps.new("arg", param.type, a.loc)
            pre.append(ir.Assign(ir.Ref(t, a.loc), a, a.loc))
            return ir.Ref(t, a.loc)
        return a

    def lift(self, e, pre):
        """e with its liftable calls replaced by temporaries assigned in `pre`."""
        if e is None:
            return None
        if isinstance(e, ir.Call):
            e.args = [self.lift(a, pre) for a in e.args]
            if self.needs_lift(e):
                e.args = [self.arg(a, p, pre) for a, p in zip(e.args, self.params_of(e))]
                if e.type.resolved().is_void:
                    raise AdgenError(f"void function '{e.func}' used in an expression", e.loc)
                t = self.temps.new(e.func + "_result", e.type, e.loc)
                pre.append(ir.Assign(ir.Ref(t, e.loc), e, e.loc))
                rt = e.type.resolved()
                if rt.is_struct and ir.holds_pointers(rt):
                    # into a copy of its own as well (see stmt): the backward sweep clears
                    # the adjoint of the call's result, pointers' shadows too
                    held = self.temps.new(e.func + "_value", e.type, e.loc)
                    pre += split_struct_copy(ir.Ref(held, e.loc), ir.Ref(t, e.loc), e.loc,
                                             self.temps)
                    return ir.Ref(held, e.loc)
                return ir.Ref(t, e.loc)
            return e
        if isinstance(e, ir.Cond) and any(isinstance(sub, ir.Call) and self.needs_lift(sub)
                                          for sub in list(ir.walk(e.then)) +
                                          list(ir.walk(e.other))):
            # c ? f(x) : g(x)  ->  if (c) t = f(x); else t = g(x);
            e.test = self.lift(e.test, pre)
            t = self.temps.new("choice", e.type, e.loc)
            branches = []
            for branch in (e.then, e.other):
                inner = []
                value = self.lift(branch, inner)
                branches.append(ir.Block(inner + [ir.Assign(ir.Ref(t), value, e.loc)]))
            pre.append(ir.If(e.test, branches[0], branches[1], e.loc))
            return ir.Ref(t, e.loc)
        if isinstance(e, ir.Binary) and e.op in ir.LOGICAL and \
                any(isinstance(sub, ir.Call) and self.needs_lift(sub) for sub in ir.walk(e.right)):
            # a && f(x)  ->  t = a != 0; if (t) t = f(x) != 0;  (|| on !t): the call runs
            # only where C evaluates it
            t = self.temps.new("logical", ir.INT, e.loc)
            pre.append(ir.Assign(ir.Ref(t, e.loc), _truth(self.lift(e.left, pre)), e.loc))
            inner = []
            right = _truth(self.lift(e.right, inner))
            test = ir.Ref(t, e.loc) if e.op == "&&" else \
                ir.Unary("!", ir.Ref(t, e.loc), ir.INT, e.loc)
            pre.append(ir.If(test, ir.Block(inner + [ir.Assign(ir.Ref(t, e.loc), right,
                                                                e.loc)]), None, e.loc))
            return ir.Ref(t, e.loc)
        if isinstance(e, ir.Binary) and e.op in ir.LOGICAL or isinstance(e, ir.Cond):
            if isinstance(e, ir.Cond):
                e.test = self.lift(e.test, pre)
                rest = (e.then, e.other)
            else:
                e.left = self.lift(e.left, pre)
                rest = (e.right,)
            for r in rest:
                for sub in ir.walk(r):
                    if isinstance(sub, ir.Call) and self.needs_lift(sub):
                        raise AdgenError(f"call to '{sub.func}' in a conditionally evaluated "
                                         "operand is not supported; compute it in a statement "
                                         "before", sub.loc)
            return e
        for name in ("base", "index", "ptr", "arg", "left", "right"):
            if isinstance(getattr(e, name, None), ir.Expr):
                setattr(e, name, self.lift(getattr(e, name), pre))
        where = "ptr" if isinstance(e, ir.Deref) else "base" if isinstance(
            e, (ir.Index, ir.Member)) else None
        if where is not None and isinstance(getattr(e, where), ir.Cond):
            # memory reached through a choice of addresses (`*(c ? &a : &b)`, `(c ? x :
            # w)[i]`): through a pointer set to the choice first, as the program would
            # write it, which the memory analysis follows
            choice = getattr(e, where)
            t = choice.type.resolved()
            if t.is_pointer or t.is_array:
                ptr_type = choice.type if t.is_pointer else ir.Ptr(t.elem)
                held = self.temps.new("address", ptr_type, e.loc)
                pre.append(ir.Assign(ir.Ref(held, e.loc), choice, e.loc))
                setattr(e, where, ir.Ref(held, e.loc))
        if isinstance(e, ir.InitList):
            e.items = [self.lift(x, pre) for x in e.items]
        return e

    # -------------------------------------------------------------- memcpy, memset
    def memory_loop(self, call, loc):
        """memcpy, memmove and memset as loops over the numbers of the block: an array
        (`&a`, a row `m[i]`, a whole `double m[2][3]`) counts its numbers in memory order.
        memset to zero of structs: over the structs, each field set by an assignment."""
        dst = _strip_void_cast(call.args[0])
        et = _scalar_pointee(dst, call.func, loc)
        if et is None or et.resolved().is_void:
            raise AdgenError(f"{call.func} on an untyped pointer: the element type is unknown",
                             loc)
        count = element_count(call.args[2], et, dst, loc, call.func, self.func)
        dst_run = _past_field(dst, count, et, call.func, loc)
        if call.func == "memset":
            fill = call.args[1]
            if not (isinstance(fill, ir.Const) and X.is_zero(fill)):
                raise AdgenError("memset with a non-zero fill value is not supported", loc)
            if not (et.resolved().is_struct or et.resolved().is_float or
                    et.resolved().is_int):
                raise AdgenError("memset of pointers is not supported; set them to NULL "
                                 "one by one", loc)
            if et.resolved().is_struct and X.int_value(count) == 1:
                return _zero_value(_one_struct(dst, et, loc), et, loc, self.temps)
        else:
            src = _strip_void_cast(call.args[1])
            st = _scalar_pointee(src, call.func, loc)
            if st is None or not X.same_type(st, et):
                def what(t):
                    return "memory of no known type" if t is None else \
                        f"'{type_name(ir.with_const(t, False))}'"
                raise AdgenError(f"{call.func} from {what(st)} into {what(et)}: a copy between "
                                 "different types is not supported; copy it with a loop, "
                                 "element by element or field by field", loc)
            src_run = _past_field(src, count, et, call.func, loc)
            if et.resolved().is_struct and X.int_value(count) == 1:
                # one struct: a copy field by field, as its assignment is
                return _copy_value(_one_struct(dst, et, loc), _one_struct(src, st, loc), et,
                                   loc, self.temps)
            if dst_run or src_run:
                return _copy_across_fields(call.func, dst, dst_run, src, src_run,
                                           X.int_value(count), et, loc)
        if call.func == "memset" and dst_run:
            zero = X.zero(ir.with_const(et, False))
            return [ir.Assign(lv, X.clone(zero), loc) for lv in dst_run]
        k = self.temps.new("k", ir.INT, loc)
        element = _element(dst, ir.Ref(k), et, loc)
        if call.func in ("memcpy", "memmove"):
            body = ir.Block(_copy_value(element, _element(src, ir.Ref(k), st, loc), et, loc,
                                        self.temps))
        else:
            # each number zero, a struct's field by field, each by an assignment of its
            # own, so that the derivative of each goes to zero with its value
            body = ir.Block(_zero_value(element, et, loc, self.temps))
        kr = ir.Ref(k)
        if X.int_value(count) is None:
            count = ir.Cast(ir.INT, count)
        up = ir.For([ir.Assign(ir.Ref(k), ir.Const("0", ir.INT), loc)],
                    ir.Binary("<", kr, count, ir.INT),
                    [ir.Assign(ir.Ref(k), ir.Binary("+", ir.Ref(k), ir.Const("1", ir.INT),
                                                    ir.INT), loc)], body, loc)
        if call.func != "memmove":
            return [up]
        # the blocks may overlap: copied upward when the destination starts first (each
        # element read before it is written over), else downward
        one = ir.Const("1", ir.INT)
        last = X.sub(X.clone(count), one)
        down = ir.For([ir.Assign(ir.Ref(k), last, loc)],
                      ir.Binary(">=", ir.Ref(k), ir.Const("0", ir.INT), ir.INT),
                      [ir.Assign(ir.Ref(k), ir.Binary("-", ir.Ref(k), X.clone(one), ir.INT),
                                 loc)], X.clone(body), loc)
        first = ir.Binary("<=", X.clone(dst), X.clone(src), ir.INT, loc)
        return [ir.If(first, ir.Block([up], loc), ir.Block([down], loc), loc)]


def _combines_floats(e):
    """True for a floating-point operation whose operands e combines unconditionally
    (arithmetic, a sign, a cast, a math call)."""
    t = e.type.resolved() if e.type is not None else None
    if t is None or not t.is_float:
        return False
    return isinstance(e, ir.Binary) and e.op in ("+", "-", "*", "/") or \
        isinstance(e, ir.Unary) and e.op in ("-", "+") or isinstance(e, ir.Cast) or \
        isinstance(e, ir.Call) and \
        getattr(LIBRARY_FUNCTIONS.get(e.func), "kind", None) == "math"


def _float_depth(e):
    """How deep the operations of _combines_floats nest in e (a leaf: 1)."""
    if not _combines_floats(e):
        return 1
    return 1 + max((_float_depth(sub) for sub in e.children()), default=0)


def _past_field(ptr, count, et, func, loc):
    """None when a block of count elements (of type et) from ptr stays within what ptr
    points into; when ptr is the address of a struct's field (or of an element of one)
    and the block runs on past that field, the numbers it covers, one lvalue each in
    memory order (`s.a`, `s.b`, `s.v[0]`, ...): the fields after it hold them where they
    are numbers of type et too, with constant extents (consecutive fields of one number
    type have no padding between them, as each type's size is a multiple of its
    alignment). Refuses a block past the field otherwise: into a field of another type,
    past the struct's end, or of a count known at run time only from a field that is one
    number. (A count known at run time only, into an array field, is taken to stay
    within it, as the program's own indexing of the array is.)"""
    found = field_room(ptr)
    if found is None:
        return None
    field, room = found
    n = X.int_value(count)
    array_field = field.type.resolved().is_array
    if n is None and array_field:
        return None
    if room is None and n is not None and array_field and n >= 0:
        return None     # (from an element at an index known at run time only)
    if room is not None and n is not None and 0 <= n <= room:
        return None
    run = _numbers_from_field(field, room, et, loc) if room is not None else None
    if n is None or run is None or not 0 <= n <= len(run):
        refuse_past_field(ptr, field, f"{func} reaches {expr_c(count)} elements from it",
                          loc)
    return run[:n]


def _numbers_from_field(field, room, et, loc):
    """The numbers from the last room numbers of field (a Member) to the end of the run
    of fields after it that are numbers of type et or arrays of them with constant
    extents, one lvalue each in memory order; None when field itself is not such."""
    struct = field.base.type.resolved()
    if field.arrow:
        struct = struct.target.resolved()
    names = [name for name, _ in struct.sdef.fields]
    if struct.sdef.is_union:
        return None
    out = []
    for name, ftype in struct.sdef.fields[names.index(field.field):]:
        numbers = X.numbers(ftype)
        if numbers is None or not (numbers[0].resolved().is_float or
                                   numbers[0].resolved().is_int) or \
                not X.same_type(numbers[0], et):
            break
        member = ir.Member(X.clone(field.base), name, field.arrow, ftype, loc)
        out += [member] if not ftype.resolved().is_array else \
            [_number_of_array(X.clone(member), ir.Const(str(k), ir.INT), loc)
             for k in range(numbers[1])]
    whole = X.numbers(field.type)
    if not out or whole is None or room > whole[1]:
        return None
    return out[whole[1] - room:]


def _copy_across_fields(func, dst, dst_run, src, src_run, n, et, loc):
    """memcpy or memmove of n numbers of type et, where the block at dst or at src
    (dst_run, src_run: its numbers, see _past_field; None for another block) spans
    several fields of a struct: one assignment per number (memmove's in the order that
    reads each number before the copy writes over it)."""
    def number(ptr, run, k):
        return X.clone(run[k]) if run else \
            _element(X.clone(ptr), ir.Const(str(k), ir.INT), et, loc)

    up = [ir.Assign(number(dst, dst_run, k), number(src, src_run, k), loc)
          for k in range(n)]
    if func != "memmove":
        return up
    down = [ir.Assign(number(dst, dst_run, k), number(src, src_run, k), loc)
            for k in reversed(range(n))]
    first = ir.Binary("<=", X.clone(dst), X.clone(src), ir.INT, loc)
    return [ir.If(first, ir.Block(up, loc), ir.Block(down, loc), loc)]


def _element(ptr, k, t, loc):
    """Number k (an expression) of the block ptr points to: `a[i + k]` for ptr `&a[i]` (a
    one-dimensional array or a pointer), `a[k]` for `&a` (an array), `m[k / 3][k % 3]` for
    a pointer to rows of 3 (`double m[2][3]`), the field itself for `&s.a` (a block of one:
    _past_field), else `ptr[k]`."""
    target = ir.pointee(ptr.type)
    if isinstance(ptr, ir.AddrOf) and isinstance(ptr.arg, ir.Member) and \
            not ptr.arg.type.resolved().is_array:
        return ptr.arg
    if target is not None and target.resolved().is_array:
        if isinstance(ptr, ir.AddrOf):
            return _number_of_array(ptr.arg, X.clone(k), loc)
        size = X.number_count(target)[1]
        row = ir.Index(ptr, ir.Binary("/", X.clone(k), size, ir.INT), target, loc)
        return _number_of_array(row, ir.Binary("%", X.clone(k), X.clone(size), ir.INT), loc)
    if isinstance(ptr, ir.AddrOf) and isinstance(ptr.arg, ir.Index) and \
            not isinstance(ptr.arg.base, ir.Index):     # (a row: its own extent)
        return ir.Index(ptr.arg.base, X.add(X.clone(ptr.arg.index), X.clone(k)), t, loc)
    inside = _row_of_array(ptr.arg if isinstance(ptr, ir.AddrOf) else ptr)
    if inside is not None:
        # a row, or a number in a row, of a multi-dimensional array: the block may run on
        # into the next rows (memmove(m[1], m[0], 8 * sizeof m[0][0])), so its numbers are
        # counted in the whole array, where each has its own index
        array, offset = inside
        return _number_of_array(array, X.add(offset, X.clone(k)), loc)
    return ir.Index(ptr, X.clone(k), t, loc)


def _row_of_array(lv):
    """(the array, the number of numbers before lv) when lv is a row of a
    multi-dimensional array variable or a number in one (`m[1]`, `m[1][2]`, `a[i][j]` of
    `double a[2][3][4]`), else None."""
    if not (isinstance(lv, ir.Index) and isinstance(lv.base, ir.Index)) and not (
            isinstance(lv, ir.Index) and lv.type is not None and lv.type.resolved().is_array):
        return None
    offset = None
    e = lv
    while isinstance(e, ir.Index) and e.base.type is not None and \
            e.base.type.resolved().is_array:
        elem = e.base.type.resolved().elem
        step = X.mul(X.clone(e.index), X.number_count(elem)[1]) \
            if elem.resolved().is_array else X.clone(e.index)
        offset = step if offset is None else X.add(step, offset)
        e = e.base
    if offset is None or e is lv or not (e.type is not None and e.type.resolved().is_array
                                         and e.type.resolved().elem.resolved().is_array):
        return None
    return e, offset


def _number_of_array(a, k, loc):
    """Number k (in memory order) of the array lvalue a."""
    elem = a.type.resolved().elem
    if not elem.resolved().is_array:
        return ir.Index(a, k, elem, loc)
    size = X.number_count(elem)[1]
    per_row = X.int_value(size)
    if X.int_value(k) is not None and per_row is not None:   # (its own indices, known here)
        row = ir.Index(a, ir.Const(str(X.int_value(k) // per_row), ir.INT), elem, loc)
        return _number_of_array(row, ir.Const(str(X.int_value(k) % per_row), ir.INT), loc)
    row = ir.Index(a, ir.Binary("/", k, size, ir.INT), elem, loc)
    return _number_of_array(row, ir.Binary("%", X.clone(k), X.clone(size), ir.INT), loc)


def _scalar_pointee(ptr, func, loc):
    """The type of the numbers of the block ptr points to (through arrays of constant
    extents); None when it points to nothing typed."""
    target = ir.pointee(ptr.type)
    if target is None or not target.resolved().is_array:
        return target
    numbers = X.number_count(target)
    if numbers is None:
        raise AdgenError(f"{func} of an array of rows whose length is not given is not "
                         "supported; copy it with loops", loc)
    return numbers[0]


# an array field of at most this many numbers is copied element by element, unrolled
UNROLLED_COPY = 64


def _own_call_position(s, done):
    """Where, in the statements done that stand for s, s's own call is: the last call
    of the same function (those lifted from its arguments come before it); 0 when there is
    none."""
    call = ir.statement_call(s)
    if call is not None:
        for k in range(len(done) - 1, -1, -1):
            c = ir.statement_call(done[k])
            if c is not None and c.func == call.func:
                return k
    return 0


def writes_into(stmts, sym):
    """True when stmts may change the value of the variable sym (a struct, or an array
    in it) other than by assigning it whole from outside: an assignment to it or into
    one of its fields or elements, or its address or an array in it handed anywhere."""
    def rooted(e):
        return ir.storage_symbol(e) is sym

    for st in ir.stmts_walk(stmts):
        if isinstance(st, ir.Assign) and rooted(st.lhs):
            return True
        for e in ir.stmt_exprs(st):
            for sub in ir.walk(e):
                if isinstance(sub, ir.AddrOf) and rooted(sub.arg):
                    return True
                if isinstance(sub, ir.Call) and any(
                        a.type is not None and a.type.resolved().is_array and rooted(a)
                        for a in sub.args):
                    return True
    return False


def moves_pointer(stmts, sym):
    """True when stmts assign the pointer variable sym or take its address."""
    for st in ir.stmts_walk(stmts):
        if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and st.lhs.sym is sym:
            return True
        for e in ir.stmt_exprs(st):
            if any(isinstance(sub, ir.AddrOf) and isinstance(sub.arg, ir.Ref) and
                   sub.arg.sym is sym for sub in ir.walk(e)):
                return True
    return False


def split_struct_copy(lhs, rhs, loc, temps):
    """`a = b` for structs, as one assignment per field, so each field's derivative
    follows its own value. Array fields: unrolled when short and of numbers, otherwise a
    loop over their elements (counters from temps), nested for arrays of arrays or of
    structs."""
    out = []
    for fname, ftype in lhs.type.resolved().sdef.fields:
        a = ir.Member(X.clone(lhs), fname, False, ftype, loc)
        b = ir.Member(X.clone(rhs), fname, False, ftype, loc)
        out += _copy_value(a, b, ftype, loc, temps)
    return out


def _copy_value(a, b, t, loc, temps):
    """Statements copying the value b to a (lvalues of type t), field by field."""
    rt = t.resolved()
    if rt.is_struct:
        return split_struct_copy(a, b, loc, temps)
    if not rt.is_array:
        return [ir.Assign(a, b, loc)]
    if rt.size is None:
        raise AdgenError("copying a struct with an open array field is not supported", loc)
    elem = rt.elem.resolved()
    n = X.int_value(rt.size)
    if n is not None and n <= UNROLLED_COPY and not elem.is_array and not elem.is_struct:
        return [ir.Assign(ir.Index(X.clone(a), ir.Const(str(k), ir.INT), rt.elem, loc),
                          ir.Index(X.clone(b), ir.Const(str(k), ir.INT), rt.elem, loc), loc)
                for k in range(n)]
    k = temps.new("k", ir.INT, loc)
    body = _copy_value(ir.Index(a, ir.Ref(k), rt.elem, loc),
                       ir.Index(b, ir.Ref(k), rt.elem, loc), rt.elem, loc, temps)
    return [ir.For([ir.Assign(ir.Ref(k), ir.Const("0", ir.INT), loc)],
                   ir.Binary("<", ir.Ref(k), X.clone(rt.size), ir.INT),
                   [ir.Assign(ir.Ref(k), ir.Binary("+", ir.Ref(k), ir.Const("1", ir.INT),
                                                   ir.INT), loc)], ir.Block(body, loc), loc)]


def _one_struct(dst, t, loc):
    """The one struct of type t that dst points to: `s` for `&s`, else `dst[0]`."""
    if isinstance(dst, ir.AddrOf) and dst.arg.type.resolved().is_struct:
        return X.clone(dst.arg)
    return ir.Index(dst, ir.Const("0", ir.INT), t, loc)


def _zero_value(a, t, loc, temps):
    """Statements setting the lvalue a, of type t, to zero as memset does: field by field,
    element by element (a short array of numbers unrolled, others in loops, counters from
    temps), pointers to NULL."""
    rt = t.resolved()
    if isinstance(rt, ir.FuncPtr):
        raise AdgenError("memset of a struct holding a function pointer is not supported; "
                         "set its fields one by one", loc)
    if rt.is_struct:
        if rt.sdef.is_union:
            raise AdgenError("unions are not supported (they can reinterpret active values)",
                             loc)
        return [st for fname, ftype in rt.sdef.fields
                for st in _zero_value(ir.Member(X.clone(a), fname, False, ftype, loc), ftype,
                                      loc, temps)]
    if rt.is_pointer:
        return [ir.Assign(a, X.null(ir.with_const(t, False), loc), loc)]
    if not rt.is_array:
        return [ir.Assign(a, X.zero(ir.with_const(t, False)), loc)]
    n = X.int_value(rt.size) if rt.size is not None else None
    if n is None:
        raise AdgenError("memset of a struct with an array field whose length is not a "
                         "constant is not supported", loc)
    elem = rt.elem.resolved()
    if n <= UNROLLED_COPY and not (elem.is_array or elem.is_struct):
        return [st for k in range(n) for st in _zero_value(
            ir.Index(X.clone(a), ir.Const(str(k), ir.INT), rt.elem, loc), rt.elem, loc, temps)]
    k = temps.new("k", ir.INT, loc)
    body = _zero_value(ir.Index(X.clone(a), ir.Ref(k), rt.elem, loc), rt.elem, loc, temps)
    return [ir.For([ir.Assign(ir.Ref(k), ir.Const("0", ir.INT), loc)],
                   ir.Binary("<", ir.Ref(k), ir.Const(str(n), ir.INT), ir.INT),
                   [ir.Assign(ir.Ref(k), ir.Binary("+", ir.Ref(k), ir.Const("1", ir.INT),
                                                   ir.INT), loc)], ir.Block(body, loc), loc)]


def _strip_void_cast(e):
    while isinstance(e, ir.Cast) and e.to.resolved().is_pointer:
        e = e.arg
    return e


def element_count(nbytes, et, dst, loc, what, func):
    """The number of elements in a byte count written `n * sizeof(T)` (or `sizeof(a)`,
    a variable-length array's extents as func declares them, provided func never sets
    the variables they read: the count is evaluated where the copy is)."""
    count = X.element_count(nbytes, et)
    if count is None:
        raise AdgenError(f"cannot tell how many elements {what} touches: write the size as "
                         "`count * sizeof(element)`", loc)
    if _sizeof_array(nbytes) and any(_set_again(func, r.sym) for r in ir.walk(count)
                                     if isinstance(r, ir.Ref)):
        raise AdgenError(f"{what} of sizeof a variable-length array whose extents the "
                         "function changes after declaring it: write the size as `count * "
                         "sizeof(element)`", loc)
    return count


def _set_again(func, sym):
    """Whether func sets sym, an extent's variable (a parameter: arrays sized in the body
    are refused), after the array's declaration has read it."""
    return any(isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and st.lhs.sym is sym
               for st in ir.stmts_walk(func.body.stmts))


def _sizeof_array(nbytes):
    while isinstance(nbytes, ir.Cast):
        nbytes = nbytes.arg
    return isinstance(nbytes, ir.SizeOf) and isinstance(nbytes.of, ir.Expr)


# ------------------------------------------------------------------ structuring

def _not(e):
    return ir.Unary("!", e, ir.INT)


def _and(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return ir.Binary("&&", a, b, ir.INT)


class Structurer:
    """Removes break, continue and early return (reverse mode needs single-exit code)."""

    def __init__(self, prog, func):
        self.func = func
        self.temps = Temps(func, taken_names(prog, func))
        self.ret_flag = None
        self.result = None

    def run(self):
        stmts = list(self.func.body.stmts)
        # A final `return e` needs no flag: it becomes `result = e`.
        final = None
        returns = [s for s in ir.stmts_walk(stmts) if isinstance(s, ir.Return)]
        if stmts and isinstance(stmts[-1], ir.Return) and len(returns) == 1:
            final = stmts.pop()
        body, _ = self.block(stmts, None)
        if final is not None and final.value is not None:
            body += self.set_result(final.value, final.loc)
        if self.ret_flag is not None:
            body.insert(0, ir.Assign(ir.Ref(self.ret_flag), ir.Const("0", ir.INT)))
        if self.result is None and not self.func.ret.resolved().is_void and \
                not any(r.value is not None for r in returns):
            # a function of a value that returns none (its value is undefined in C, and
            # its callers may ignore it): its result all the same, so that they compile
            self.result_sym(self.func.loc)
        self.func.body = ir.Block(body, self.func.body.loc)
        self.func.result = self.result

    def set_result(self, value, loc):
        target = ir.Ref(self.result_sym(loc), loc)
        if value.type.resolved().is_struct and ir.is_lvalue(value):
            return split_struct_copy(target, value, loc, self.temps)
        return [ir.Assign(target, value, loc)]

    def result_sym(self, loc=None):
        if self.result is None:
            self.result = self.temps.new(self.func.name + "_result"
                                         if False else "result", self.func.ret, loc)
        return self.result

    def block(self, stmts, loop):
        """Rewrite a statement list; returns (stmts, exits) where exits is a set of
        'break' / 'continue' / 'return' that may leave it."""
        out, exits = [], set()
        for i, s in enumerate(stmts):
            new, ex = self.stmt(s, loop)
            if len(new) > 1 and out and isinstance(out[-1], ir.Pragma) and \
                    isinstance(new[-1], (ir.For, ir.While, ir.DoWhile)):
                # a loop left by break or return comes after its flags' set-up: its
                # directive (fp_loop, binomial_ckp) stays just before it
                out[-1:] = new[:-1] + out[-1:]
                new = new[-1:]
            out.extend(new)
            if ex:
                exits |= ex
                rest, rex = self.block(stmts[i + 1:], loop)
                exits |= rex
                if rest:
                    guard = self.guard(ex, loop)
                    out.append(ir.If(guard, ir.Block(rest), None, rest[0].loc))
                break
        return out, exits

    def guard(self, exits, loop):
        g = None
        if "break" in exits:
            g = _and(g, _not(ir.Ref(loop["brk"])))
        if "continue" in exits:
            g = _and(g, _not(ir.Ref(loop["cont"])))
        if "return" in exits:
            g = _and(g, _not(ir.Ref(self.ret_flag)))
        return g

    def flag(self, loop, kind, loc):
        if loop[kind] is None:
            loop[kind] = self.temps.new({"brk": "brk", "cont": "cont"}[kind], ir.INT, loc)
            loop[kind].is_flag = True
        return loop[kind]

    def stmt(self, s, loop):
        one = ir.Const("1", ir.INT)
        if isinstance(s, ir.Break):
            return [ir.Assign(ir.Ref(self.flag(loop, "brk", s.loc)), one, s.loc)], {"break"}
        if isinstance(s, ir.Continue):
            return [ir.Assign(ir.Ref(self.flag(loop, "cont", s.loc)), one, s.loc)], {"continue"}
        if isinstance(s, ir.Return):
            if self.ret_flag is None:
                self.ret_flag = self.temps.new("returned", ir.INT, s.loc)
                self.ret_flag.is_flag = True
            out = []
            if s.value is not None:
                out += self.set_result(s.value, s.loc)
            out.append(ir.Assign(ir.Ref(self.ret_flag), one, s.loc))
            return out, {"return"}
        if isinstance(s, ir.Block):
            body, ex = self.block(s.stmts, loop)
            return [ir.Block(body, s.loc)], ex
        if isinstance(s, ir.If):
            then, e1 = self.block(s.then.stmts, loop)
            other, e2 = self.block(s.other.stmts, loop) if s.other else ([], set())
            return [ir.If(s.test, ir.Block(then, s.then.loc),
                          ir.Block(other, s.other.loc) if s.other else None, s.loc)], e1 | e2
        if isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            return self.loop(s)
        return [s], set()

    def loop(self, s):
        info = {"brk": None, "cont": None}
        body, ex = self.block(s.body.stmts, info)
        returns = "return" in ex
        if info["cont"] is not None:
            body.insert(0, ir.Assign(ir.Ref(info["cont"]), ir.Const("0", ir.INT)))
        stop = None
        if info["brk"] is not None:
            stop = _not(ir.Ref(info["brk"]))
        if returns:
            stop = _and(stop, _not(ir.Ref(self.ret_flag)))
        pre = []
        if info["brk"] is not None:
            pre.append(ir.Assign(ir.Ref(info["brk"]), ir.Const("0", ir.INT), s.loc))
        outer_exits = {"return"} if returns else set()
        if stop is None:
            s.body = ir.Block(body, s.body.loc)
            return pre + [s], outer_exits
        if isinstance(s, ir.For):
            # The step must not run after a break or return: the loop becomes a while.
            test = _and(stop, s.test)
            step = [ir.If(stop, ir.Block(list(s.step)), None, s.loc)] if s.step else []
            loop = ir.While(test, ir.Block(body + step, s.body.loc), s.loc)
            return pre + list(s.init) + [loop], outer_exits
        if isinstance(s, ir.While):
            return pre + [ir.While(_and(stop, s.test), ir.Block(body, s.body.loc), s.loc)], \
                outer_exits
        return pre + [ir.DoWhile(ir.Block(body, s.body.loc), _and(stop, s.test), s.loc)], \
            outer_exits


def normalize_program(prog, names):
    """Normalize the functions named (those the heads reach: the others are left as they
    are, and may use what adgen does not support)."""
    for name in names:
        f = prog.functions[name]
        if f.has_body and not getattr(f, "is_library", False):
            Normalizer(prog, f).run()


def structure_program(prog, names):
    for name in names:
        f = prog.functions[name]
        # The analyses that reason about loop bounds read the loops as written.
        f.written_body = X.clone_stmts(f.body)
        Structurer(prog, f).run()
