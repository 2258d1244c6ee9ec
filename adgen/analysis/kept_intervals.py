"""Integer locals that every assignment keeps inside one interval: a binary search's cell.

`lo = 0; hi = n - 1; while (hi - lo > 1) { mid = (lo + hi) / 2; if (xs[mid] <= t) lo =
mid; else hi = mid; }` sets lo, hi and mid from each other and from values that read none
of them, 0 and n - 1 (the bases). The interval [L, H] the bases span holds all three
wherever they are read when every other assignment to one of them gives a value inside it
whenever all of them are inside it (by induction over the assignments as they run): mid =
(lo + hi) / 2 is, lo + hi being in [2L, 2H]; lo = mid and hi = mid are. That is checked
here with L and H as two unknowns (L <= H), not assumed: `hi = mid + 1` could leave the
interval, and the group then has none. analysis/extent.py asks kept_interval for the
interval of a local it finds no other for.
"""
from adgen import ir
from adgen.analysis.poly import NotPolynomial, Poly
from adgen.ir import exprs as X

# the atoms standing for the interval's ends (keys no C text can be)
_LOW, _HIGH = "interval low", "interval high"


def kept_interval(sym, assignments_of, joins, known, span, bounds):
    """(lowest, highest, whether not negative), the interval that the assignments of sym's
    group (kept_group) keep it in, or None. known(assignment): whether the others can tell
    about it; span(assignment) is the interval (with lo, hi and nonneg) of the value of an
    assignment that reads none of the group, or None; bounds(assignment, e) as for keeps."""
    group, assigns = kept_group(sym, assignments_of, lambda s, v: known(s) and joins(s, v))
    if not all(known(s) for s in assigns):
        return None
    bases = [s for s in assigns if not reads_group(s.rhs, group)]
    spans = [span(s) for s in bases]
    if not bases or any(iv is None for iv in spans):
        return None
    if not all(keeps(s.rhs, group, lambda e, s=s: bounds(s, e))
               for s in assigns if reads_group(s.rhs, group)):
        return None
    lo, hi = spans[0].lo, spans[0].hi
    for iv in spans[1:]:
        lo = ir.Cond(ir.Binary("<=", X.clone(lo), X.clone(iv.lo), ir.INT), lo, iv.lo,
                     ir.LONG)
        hi = ir.Call("adgen_imax", [hi, iv.hi], ir.LONG)
    return lo, hi, all(iv.nonneg for iv in spans)


def kept_group(sym, assignments_of, joins):
    """(the group, its assignments): the integer locals connected to sym through the
    values of their assignments (assignments_of(variable)): an assignment to a member
    reading v puts v in the group where joins(the assignment, v)."""
    group, todo, assigns = {sym}, [sym], []
    while todo:
        for s in assignments_of(todo.pop()):
            assigns.append(s)
            for r in ir.walk(s.rhs):
                if isinstance(r, ir.Ref) and r.sym not in group and joins(s, r.sym):
                    group.add(r.sym)
                    todo.append(r.sym)
    return group, assigns


def reads_group(e, group):
    return any(isinstance(r, ir.Ref) and r.sym in group for r in ir.walk(e))


def keeps(value, group, bounds):
    """Whether the integer expression value lies in [L, H] whenever every variable of group
    does, for any L <= H; bounds(e) gives (lower, upper), polynomials in the sizes, of any
    other operand e, or raises NotPolynomial."""
    try:
        return _within(value, Poly.atom(_HIGH, None), True, group, bounds) and \
            _within(value, Poly.atom(_LOW, None), False, group, bounds)
    except NotPolynomial:
        return False


def _within(e, bound, high, group, bounds):
    """Whether e <= bound (high) or e >= bound (not high)."""
    e = _uncast(e)
    if isinstance(e, ir.Cond):
        return all(_within(x, bound, high, group, bounds) for x in (e.then, e.other))
    divisor = _divisor(e)
    if divisor is not None:
        # C's quotient by c > 0 (truncated; a shift's floored) is at most H where the
        # dividend is at most c*H, at least L where it is at least c*L (L, H integers)
        return _within(e.left, bound.scale(divisor), high, group, bounds)
    if high:
        return _nonneg(bound - _bound(e, True, group, bounds))
    return _nonneg(_bound(e, False, group, bounds) - bound)


# the integer types a conversion to keeps every value of int (or of long) as it is
_KEEPING = ("int", "long", "long long")


def _uncast(e):
    """e without conversions that keep its value: to a signed type as wide as int."""
    while isinstance(e, ir.Cast) and getattr(e.to.resolved(), "name", None) in _KEEPING \
            and e.arg.type is not None and e.arg.type.resolved().is_int:
        e = e.arg
    return e


def _constant(e):
    e = _uncast(e)
    if isinstance(e, ir.Const) and e.text.rstrip("uUlL").isdigit():
        return int(e.text.rstrip("uUlL"))
    return None


def _divisor(e):
    """c when e is `a / c` or `a >> k` (c = 2**k) of a constant c > 0; else None."""
    if not isinstance(e, ir.Binary):
        return None
    c = _constant(e.right)
    if e.op == "/" and c is not None and c > 0:
        return c
    if e.op == ">>" and c is not None and c < 63:
        return 2 ** c
    return None


def _bound(e, high, group, bounds):
    """An upper (high) or lower bound of e, a polynomial in L, H and the sizes."""
    e = _uncast(e)
    c = _constant(e)
    if c is not None:
        return Poly.const(c)
    if isinstance(e, ir.Ref) and e.sym in group:
        return Poly.atom(_HIGH if high else _LOW, None)
    if isinstance(e, ir.Binary) and e.op in "+-":
        right = _bound(e.right, high if e.op == "+" else not high, group, bounds)
        left = _bound(e.left, high, group, bounds)
        return left + right if e.op == "+" else left - right
    if isinstance(e, ir.Binary) and e.op == "*":
        for factor, other in ((e.left, e.right), (e.right, e.left)):
            k = _constant(factor)
            if k is not None:
                return _bound(other, high, group, bounds).scale(k)
        raise NotPolynomial
    if isinstance(e, ir.Unary) and e.op == "-":
        return -_bound(e.arg, not high, group, bounds)
    if reads_group(e, group):
        raise NotPolynomial
    lower, upper = bounds(e)
    return upper if high else lower


def _nonneg(p):
    """Whether polynomial p is >= 0 for every L <= H and sizes >= 0: a*H - a*L with a >= 0,
    plus a polynomial in the sizes with non-negative coefficients."""
    ends = {k: v for k, v in p.terms.items() if _LOW in k or _HIGH in k}
    if set(ends) - {(_LOW,), (_HIGH,)}:
        return False
    a, b = ends.get((_HIGH,), 0), ends.get((_LOW,), 0)
    rest = Poly({k: v for k, v in p.terms.items() if k not in ends})
    return a >= 0 and a + b == 0 and rest.nonneg_for_nonneg_atoms()
