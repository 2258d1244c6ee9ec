"""Small algebra on IR expressions: copying, substitution, and arithmetic that folds the
zeros and ones derivative code is full of, so the output stays readable."""
import copy
import dataclasses
import io
import math
import pickle
import struct
import threading

from adgen import ir


def clone(e):
    """A deep copy of an expression tree; symbols and types are shared, not copied."""
    if e is None:
        return None
    # what copy.copy does for these plain objects (a new instance, the attributes
    # copied in order), without its generic protocol: derivative code clones a lot
    cls = e.__class__
    c = cls.__new__(cls)
    made = c.__dict__
    for name, value in e.__dict__.items():
        if isinstance(value, ir.Expr):
            value = clone(value)
        elif isinstance(value, list):
            value = [clone(v) if isinstance(v, ir.Expr) else v for v in value]
        made[name] = value
    return c


def clone_stmts(block, copies=None):
    """A deep copy of a statement tree; symbols and types are shared, not copied. With a
    dict `copies`, each statement's copy is entered there under the id of the statement."""
    memo = {}
    for st in ir.stmts_walk([block]):
        exprs = list(ir.stmt_exprs(st))
        if isinstance(st, ir.Raw):
            exprs += [v for v in st.args.values() if isinstance(v, ir.Expr)]
            for v in st.args.values():
                if isinstance(v, ir.Type):
                    memo[id(v)] = v
        for e in exprs:
            if e is not None:
                _share_symbols(e, memo)
        if isinstance(st, ir.For):
            for x in st.init + st.step:
                for e in ir.stmt_exprs(x):
                    _share_symbols(e, memo)
    made = copy.deepcopy(block, memo) if copies is not None else deep_copy(block, memo)
    if copies is not None:
        copies.update((id(st), memo[id(st)]) for st in ir.stmts_walk([block]))
    return made


def deep_copy(obj, memo):
    """copy.deepcopy(obj, memo) (the objects memo holds stand for themselves), through
    pickle: the same copy, several times faster (whole functions are copied). deepcopy
    where pickle cannot copy something (a function made at run time)."""
    buf = io.BytesIO()
    try:
        _SharingPickler(buf, memo).dump(obj)
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(obj, memo)
    outer = getattr(_SHARED, "memo", None)
    _SHARED.memo = memo
    try:
        return pickle.loads(buf.getvalue())
    finally:
        _SHARED.memo = outer


# the objects the copy being loaded keeps by reference (deep_copy's memo), per thread
_SHARED = threading.local()


def _shared(key):
    """The object of deep_copy's memo whose id is key: what a reference to it loads."""
    return _SHARED.memo[key]


class _SharingPickler(pickle.Pickler):
    """A pickler that writes the objects of memo as references (_shared): it is asked
    only about the objects it has not written yet and that are not strings or numbers."""

    def __init__(self, buf, memo):
        super().__init__(buf, protocol=pickle.HIGHEST_PROTOCOL)
        self.memo_ids = memo

    def reducer_override(self, obj):
        key = id(obj)
        if key in self.memo_ids:
            return _shared, (key,)
        return NotImplemented


def _share_symbols(e, memo):
    for sub in ir.walk(e):
        if isinstance(sub, ir.Ref):
            memo[id(sub.sym)] = sub.sym
        for attr in ("type", "to"):
            t = getattr(sub, attr, None) if attr != "type" or not isinstance(sub, ir.Ref) else None
            if isinstance(t, ir.Type):
                memo[id(t)] = t
        if isinstance(sub, ir.SizeOf):
            if isinstance(sub.of, ir.Type):
                memo[id(sub.of)] = sub.of
            else:
                _share_symbols(sub.of, memo)


def substitute(e, mapping):
    """Copy of e with every Ref to a symbol in mapping replaced by a copy of its value."""
    if isinstance(e, ir.Ref) and e.sym in mapping:
        return clone(mapping[e.sym])
    e = copy.copy(e)
    for name in ("base", "index", "ptr", "arg", "left", "right", "test", "then", "other"):
        if hasattr(e, name) and isinstance(getattr(e, name), ir.Expr):
            setattr(e, name, substitute(getattr(e, name), mapping))
    if isinstance(e, ir.Call):
        e.args = [substitute(a, mapping) for a in e.args]
    if isinstance(e, ir.Deref) and isinstance(e.ptr, ir.AddrOf):
        return e.ptr.arg        # *&v, from a pointer parameter given &v
    return e


def map_children(e, fn):
    """A copy of the expression e with fn applied to its sub-expressions."""
    e = copy.copy(e)
    for f in dataclasses.fields(e):
        value = getattr(e, f.name)
        if isinstance(value, ir.Expr):
            setattr(e, f.name, fn(value))
        elif isinstance(value, list):
            setattr(e, f.name, [fn(x) if isinstance(x, ir.Expr) else x for x in value])
    return e


def const(value, t=ir.DOUBLE):
    r = t.resolved()
    if r.is_float:
        text = repr(float(value)) if not float(value).is_integer() else f"{float(value):.1f}"
        if getattr(r, "name", "") == "float":
            text += "f"
        return ir.Const(text, ir.Prim(r.name))
    return ir.Const(str(int(value)), ir.Prim(getattr(r, "name", "int")))


def zero(t=ir.DOUBLE):
    return const(0, t)


def null(t, loc=None):
    """The null pointer of pointer type t: (T *)0."""
    return ir.Cast(t, ir.Const("0", ir.INT, loc), loc)


def is_null(e):
    """True for a null pointer constant (0, cast or not)."""
    while isinstance(e, ir.Cast):
        e = e.arg
    return isinstance(e, ir.Const) and e.text == "0"


def is_zero(e):
    return isinstance(e, ir.Const) and e.text.rstrip("fFlLuU") in ("0", "0.0", "0.", ".0")


def is_one(e):
    return isinstance(e, ir.Const) and e.text.rstrip("fFlLuU") in ("1", "1.0", "1.")


def _ftype(a, b=None):
    if b is None:
        return a.type
    return ir.arith_result(a.type, b.type)


def _int_value(e):
    if isinstance(e, ir.Const) and e.type.resolved().is_int:
        if e.value is not None:
            return e.value
        t = e.text
        if t.lstrip("-").isdigit():
            return int(t)
    return None


def int_value(e):
    """The value of an integer constant expression, or None."""
    v = _int_value(e)
    if v is not None:
        return v
    if isinstance(e, ir.Binary) and e.op in "+-*":
        a, b = int_value(e.left), int_value(e.right)
        if a is not None and b is not None:
            return a + b if e.op == "+" else a - b if e.op == "-" else a * b
    return None


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


def constant_value(e):
    """The value of a constant expression of numbers, worked out as C does at run time (an
    int, or a float rounded to single precision where its type is float; integer division
    and conversions truncating toward zero; comparisons 0 or 1, and `?:` the branch they
    choose): `(int)(5.0 / (double)(1.0f / 12.0f))` is 59; None for anything else (a
    variable, a call, long double, an overflow)."""
    t = e.type.resolved() if e.type is not None else None
    name = getattr(t, "name", None)
    if name == "long double" or t is None or not (t.is_int or t.is_float):
        return None

    def typed(v):
        if isinstance(v, float) and not math.isfinite(v):
            return None
        if t.is_int:
            v = int(v)      # (toward zero, as C converts)
            return v if -2**31 <= v < 2**31 or name in ("long", "long long") and \
                -2**63 <= v < 2**63 else None
        v = float(v)
        return struct.unpack("f", struct.pack("f", v))[0] if name == "float" else v

    if isinstance(e, ir.Const):
        text = e.text.rstrip("uUlL") if t.is_int else e.text.rstrip("fF")
        try:
            return typed(int(text, 0) if t.is_int else float(text))
        except (ValueError, OverflowError, struct.error):
            return None
    if isinstance(e, ir.Cast):
        v = constant_value(e.arg)
        return None if v is None else typed(v)
    if isinstance(e, ir.Unary) and e.op in "+-":
        v = constant_value(e.arg)
        return None if v is None else typed(-v if e.op == "-" else v)
    if isinstance(e, ir.Cond):
        test = constant_value(e.test)
        v = None if test is None else constant_value(e.then if test else e.other)
        return None if v is None else typed(v)
    if isinstance(e, ir.Binary) and e.op in _COMPARE:
        a, b = constant_value(e.left), constant_value(e.right)
        return None if a is None or b is None else typed(int(_COMPARE[e.op](a, b)))
    if isinstance(e, ir.Binary) and e.op in ("+", "-", "*", "/", "%"):
        a, b = constant_value(e.left), constant_value(e.right)
        if a is None or b is None or e.op in "/%" and b == 0:
            return None
        if t.is_int:
            a, b = int(a), int(b)
            quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            v = {"+": a + b, "-": a - b, "*": a * b, "/": quotient,
                 "%": a - quotient * b}[e.op]
        else:
            if e.op == "%":
                return None
            a, b = float(a), float(b)
            v = {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[e.op]
        try:
            return typed(v)
        except (OverflowError, struct.error):
            return None
    return None


def fold(e):
    """e with its integer comparisons of constants (enumerators included) decided, the `?:`
    they choose between taken, and sums and products of constants worked out: a rule's
    length at a call (`Order==101?(M-1)*lda+N:...` with Order CblasRowMajor)."""
    if isinstance(e, ir.Cond):
        test = fold(e.test)
        v = _int_value(test)
        if v is not None:
            return fold(e.then if v else e.other)
        return ir.Cond(test, fold(e.then), fold(e.other), e.type, e.loc)
    if isinstance(e, ir.Binary):
        left, right = fold(e.left), fold(e.right)
        a, b = int_value(left), int_value(right)
        if e.op in _COMPARE and a is not None and b is not None:
            return ir.Const("1" if _COMPARE[e.op](a, b) else "0", ir.INT, e.loc)
        if e.op in ("+", "-", "*") and e.type.resolved().is_int:
            return {"+": add, "-": sub, "*": mul}[e.op](left, right)
        return ir.Binary(e.op, left, right, e.type, e.loc)
    return e


def mul(a, b):
    va, vb = _int_value(a), _int_value(b)
    if va is not None and vb is not None:
        return ir.Const(str(va * vb), ir.arith_result(a.type, b.type))
    if is_zero(a) or is_zero(b):
        return zero(_ftype(a, b))
    if is_one(a):
        return b
    if is_one(b):
        return a
    if isinstance(a, ir.Unary) and a.op == "-":
        return neg(mul(a.arg, b))
    if isinstance(b, ir.Unary) and b.op == "-":
        return neg(mul(a, b.arg))
    return ir.Binary("*", a, b, _ftype(a, b))


def div(a, b):
    if is_zero(a):
        return a
    if is_one(b):
        return a
    return ir.Binary("/", a, b, _ftype(a, b))


def add(a, b):
    if a is None or is_zero(a):
        return b
    if b is None or is_zero(b):
        return a
    va, vb = _int_value(a), _int_value(b)
    if va is not None and vb is not None:
        return ir.Const(str(va + vb), ir.arith_result(a.type, b.type))
    if va is not None and b.type is not None and b.type.resolved().is_int:
        return add(b, a)                        # constants to the right: n + 1
    if vb is not None and isinstance(a, ir.Binary) and a.op == "+" and \
            _int_value(a.left) is not None:
        return add(a.right, ir.Const(str(_int_value(a.left) + vb), b.type))
    if vb is not None and vb < 0 and a.type is not None and a.type.resolved().is_int and \
            not (isinstance(a, ir.Binary) and a.op in "+-" and _int_value(a.right) is not None):
        return ir.Binary("-", a, ir.Const(str(-vb), b.type), a.type)
    if vb is not None and isinstance(a, ir.Binary) and a.op in "+-" and \
            _int_value(a.right) is not None:
        # (x + 2) + 3  ->  x + 5 ;  (x - 1) + 1  ->  x
        c = (_int_value(a.right) if a.op == "+" else -_int_value(a.right)) + vb
        if c == 0:
            return a.left
        return ir.Binary("+" if c > 0 else "-", a.left, ir.Const(str(abs(c)), b.type),
                         a.type)
    if isinstance(b, ir.Unary) and b.op == "-":
        return ir.Binary("-", a, b.arg, _ftype(a, b))
    return ir.Binary("+", a, b, _ftype(a, b))


def sub(a, b):
    if is_zero(b):
        return a
    if isinstance(a, ir.Binary) and a.op in "+-" and a.type is not None and \
            a.type.resolved().is_int and not has_call(a) and not has_call(b):
        # (l + k) - l  ->  k: an offset taken off again (`lb + n - 1 - lb` of a lower
        # bound: n - 1)
        rest = _without_term(a, b)
        if rest is not None:
            return rest
    vb = _int_value(b)
    if vb is not None and a.type is not None and a.type.resolved().is_int:
        return add(a, ir.Const(str(-vb), b.type)) if vb > 0 or _int_value(a) is not None \
            else add(a, ir.Const(str(-vb), b.type))
    if is_zero(a):
        return neg(b)
    return ir.Binary("-", a, b, _ftype(a, b))


def _without_term(a, b):
    """Integer sum a with one term that reads as b taken out (a term added, in a chain of
    additions and subtractions), or None when it has none."""
    if not (isinstance(a, ir.Binary) and a.op in "+-"):
        return None
    if a.op == "+":
        if same_text(a.left, b):
            return a.right
        if same_text(a.right, b):
            return a.left
    left = _without_term(a.left, b)
    if left is None:
        return None
    return add(left, a.right) if a.op == "+" else sub(left, a.right)


def same_text(a, b):
    """Whether two expressions are written the same (the C text they give)."""
    from adgen.ir.c_text import expr_c
    return expr_c(a) == expr_c(b)


def neg(a):
    if is_zero(a):
        return a
    if isinstance(a, ir.Unary) and a.op == "-":
        return a.arg
    return ir.Unary("-", a, a.type)


_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def logical_not(e):
    """!e, a comparison turned around (integer and pointer operands: no NaN)."""
    if isinstance(e, ir.Binary) and e.op in _NEGATED and \
            not (e.left.type and e.left.type.is_float or e.right.type and e.right.type.is_float):
        return ir.Binary(_NEGATED[e.op], e.left, e.right, e.type, e.loc)
    if isinstance(e, ir.Unary) and e.op == "!":
        return e.arg
    return ir.Unary("!", e, ir.INT)


def any_of(conditions):
    """c1 || c2 || ... of a non-empty list of conditions, in order."""
    out = conditions[0]
    for c in conditions[1:]:
        out = ir.Binary("||", out, c, ir.INT)
    return out


def ref(sym):
    return ir.Ref(sym)


def cast_to(e, t):
    """e converted to the float type t when its type differs."""
    et, tt = e.type.resolved(), t.resolved()
    if getattr(et, "name", None) == getattr(tt, "name", None):
        return e
    if isinstance(e, ir.Const) and is_zero(e):
        return zero(t)
    return ir.Cast(ir.Prim(tt.name), e)


def refs(e):
    """Symbols read by an expression (every Ref in it)."""
    return [s.sym for s in ir.walk(e) if isinstance(s, ir.Ref)]


def mentions(e, sym):
    """True when expression e names the variable sym."""
    return any(isinstance(s, ir.Ref) and s.sym is sym for s in ir.walk(e))


def stmts_mention(stmts, sym, skip=frozenset()):
    """True when a statement of stmts (nested ones too, but those whose id is in skip)
    names the variable sym in its own expressions."""
    return any(mentions(e, sym) for st in ir.stmts_walk(stmts, skip) for e in ir.stmt_exprs(st))


def has_call(e):
    return any(isinstance(s, ir.Call) for s in ir.walk(e))


# ------------------------------------------------------------------ statements

def used_symbols(stmts, targets=True, both=False):
    """Symbols referenced anywhere in a statement list; without targets, not counting the
    variables assignments set as a whole (`v = e` sets v, reads what e reads); with both,
    (those with targets, those without), read in one walk."""
    out = set()
    set_whole = set()       # the variables `v = e` sets

    def visit_expr(e):
        if e is None:
            return
        for sub in ir.walk(e):
            if isinstance(sub, ir.Ref):
                out.add(sub.sym)
            elif isinstance(sub, ir.SizeOf) and isinstance(sub.of, ir.Expr):
                visit_expr(sub.of)
            t = getattr(sub, "to", None)
            if isinstance(t, ir.Arr) and t.size is not None:
                visit_expr(t.size)

    for s in ir.stmts_walk(stmts):
        if (both or not targets) and isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref):
            visit_expr(s.rhs)
            set_whole.add(s.lhs.sym)
            continue
        for e in ir.stmt_exprs(s):
            visit_expr(e)
        if isinstance(s, ir.Raw):
            for v in s.args.values():
                if isinstance(v, ir.Expr):
                    visit_expr(v)
                elif isinstance(v, ir.Symbol):
                    out.add(v)
    return (out | set_whole, out) if both else out


def used_calls(stmts):
    names = set()
    for s in ir.stmts_walk(stmts):
        exprs = list(ir.stmt_exprs(s))
        if isinstance(s, ir.Raw):
            exprs += [v for v in s.args.values() if isinstance(v, ir.Expr)]
        for e in exprs:
            for sub in ir.walk(e):
                if isinstance(sub, ir.Call):
                    names.add(sub.func)
    return names


def loop_level(stmts):
    """Statements of a loop body that belong to this loop (not to nested loops)."""
    for s in stmts:
        yield s
        if isinstance(s, ir.Block):
            yield from loop_level(s.stmts)
        elif isinstance(s, ir.If):
            yield from loop_level(s.then.stmts)
            if s.other:
                yield from loop_level(s.other.stmts)


def continue_through(stmts, extra):
    """Rewrites, in place, each continue of the loop whose body is the statement list
    stmts (not of loops inside it) into `{ extra; continue; }`, extra a copy of the
    statements each time: what a continue must still run when a loop is lowered with
    statements of its step or condition at the end of its body (`for (...; n-- > 0;
    k++)` read as `while (1) { t = n > 0; n--; if (!t) break; body; k++; }`)."""
    for i, s in enumerate(stmts):
        if isinstance(s, ir.Continue):
            copied = clone_stmts(ir.Block(list(extra), s.loc)).stmts
            stmts[i] = ir.Block(copied + [s], s.loc)
        elif isinstance(s, ir.Block):
            continue_through(s.stmts, extra)
        elif isinstance(s, ir.If):
            continue_through(s.then.stmts, extra)
            if s.other:
                continue_through(s.other.stmts, extra)


def counted_loop(k, n, body):
    """for (k = 0; k < n; k++) body"""
    return ir.For([ir.Assign(ir.Ref(k), ir.Const("0", ir.INT))],
                  ir.Binary("<", ir.Ref(k), clone(n), ir.INT),
                  [ir.Assign(ir.Ref(k), add(ir.Ref(k), ir.Const("1", ir.INT)))],
                  ir.Block(body))


def numbers(t):
    """(the element type, how many) of the numbers of type t, an array of arrays with
    constant extents; (t, 1) for a scalar; None when an extent is not a constant."""
    n, t = 1, t.resolved()
    while isinstance(t, ir.Arr):
        extent = int_value(t.size) if t.size is not None else None
        if extent is None:
            return None
        n, t = n * extent, t.elem.resolved()
    return t, n


def number_count(t):
    """(the element type, how many) of the numbers of type t, an array of arrays, the
    count an expression: a constant where the extents are, their product where one is known
    at run time only (`double u[ny][nx]`); None when an extent is not given."""
    n, t = ir.Const("1", ir.INT), t.resolved()
    while isinstance(t, ir.Arr):
        if t.size is None:
            return None
        n, t = mul(n, clone(t.size)), t.elem.resolved()
    return t, fold(n)


def same_type(a, b):
    """True when types a and b are spelt alike, their own const aside."""
    from adgen.ir.c_text import type_name
    return type_name(ir.with_const(a.resolved(), False)) == \
        type_name(ir.with_const(b.resolved(), False))


def element_count(nbytes, et):
    """The number of elements of type et in a byte count written `n * sizeof(T)` (in any
    order, with casts) or `sizeof(a)` of an array of them; None when it is not so written."""
    def is_elem_size(e):
        if not isinstance(e, ir.SizeOf):
            return False
        t = e.of.type if isinstance(e.of, ir.Expr) else e.of
        return same_type(t, et)

    e = nbytes
    while isinstance(e, ir.Cast):
        e = e.arg
    if is_elem_size(e):
        return ir.Const("1", ir.INT)
    # a product with one sizeof(element) factor, in any place: n * m * sizeof(double)
    factors = []

    def flatten(x):
        while isinstance(x, ir.Cast):
            x = x.arg
        if isinstance(x, ir.Binary) and x.op == "*":
            flatten(x.left)
            flatten(x.right)
        else:
            factors.append(x)

    flatten(e)
    sizes = [f for f in factors if is_elem_size(f)]
    if len(sizes) == 1 and len(factors) > 1:
        rest = [f for f in factors if f is not sizes[0]]
        count = rest[0]
        for f in rest[1:]:
            count = ir.Binary("*", count, f, ir.arith_result(count.type, f.type))
        return count
    if isinstance(e, ir.SizeOf):        # sizeof a, sizeof(double [2][3]): its numbers
        t = (e.of.type if isinstance(e.of, ir.Expr) else e.of).resolved()
        found = numbers(t) if isinstance(t, ir.Arr) else None
        if found is not None and same_type(found[0], et):
            return ir.Const(str(found[1]), ir.INT)
        if isinstance(t, ir.Arr) and t.size is not None and isinstance(e.of, ir.Expr) and \
                same_type(t.elem, et):
            return t.size
        # a variable-length array's, `double u[ny][nx]`: ny * nx, its extents as declared
        found = number_count(t) if isinstance(t, ir.Arr) and isinstance(e.of, ir.Expr) \
            else None
        if found is not None and same_type(found[0], et):
            return found[1]
    return None
