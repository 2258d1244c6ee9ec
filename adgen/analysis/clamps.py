"""An integer local set once and then clamped into a range before it is read.

An interpolation finds its cell so: `j = (int)(t / h); if (j < 0) j = 0; if (j > n - 2)
j = n - 2;` (also `j = j < 0 ? 0 : j;`, `j = j > n - 2 ? n - 2 : j;`), then reads x[j] and
x[j + 1]. The first value has no bound adgen can tell, but each clamp bounds the value
from its side whatever it was before: after these two, j is in [min(0, n - 2), n - 2].
clamped_setting finds such a local; analysis/extent.py works out the range from it. The
clamp may be on the floating-point value before its conversion, `j = (int)fmax(0.0,
fmin(t / h, n - 2.0));`: float_bounds gives the whole numbers that bound it.
"""
import re

from adgen import ir
from adgen.ir import exprs as X

# a comparison with its sides swapped: `B > j` is `j < B`
FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}

LOWER, UPPER = "lower", "upper"     # the side a clamp bounds


def clamped_setting(body, sym):
    """(the statement that sets sym first, [(side, bound, the assignment of the clamp)])
    when, in the statements body, sym is set once (`j = e`, e not reading j) and then only
    by clamps (_clamp) that follow it in the same statement list, and is read only by
    those clamps and by the statements after the last of them there; else None."""
    sets = [s for s in ir.stmts_walk(body)
            if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref) and s.lhs.sym is sym]
    if len(sets) < 2:
        return None
    stmts = enclosing_list(body, sets[0])
    if stmts is None or X.mentions(sets[0].rhs, sym):
        return None
    first = next(k for k, s in enumerate(stmts) if s is sets[0])
    clamps, allowed, last = [], {id(sets[0])}, first
    for k in range(first + 1, len(stmts)):
        found = _clamp(stmts[k], sym)
        if found is not None:
            clamps.append(found)
            allowed |= {id(s) for s in ir.stmts_walk([stmts[k]])}
            last = k
    if not clamps or any(id(s) not in allowed for s in sets):
        return None
    allowed |= {id(s) for s in ir.stmts_walk(stmts[last + 1:])}
    # a read between the setting and the last clamp sees a value not yet clamped
    if any(id(s) not in allowed and any(X.mentions(e, sym) for e in ir.stmt_exprs(s))
           for s in ir.stmts_walk(body)):
        return None
    return sets[0], clamps


def enclosing_list(stmts, target):
    """The statement list that holds target directly, or None."""
    if any(s is target for s in stmts):
        return stmts
    for s in stmts:
        for inner in ir.nested_lists(s):
            found = enclosing_list(inner, target)
            if found is not None:
                return found
    return None


def _clamp(s, sym):
    """(side, bound, the assignment) when statement s clamps sym to the bound from one side,
    `if (j < B) j = B;` (LOWER), `if (j > B) j = B;` (UPPER), `j = j < B ? B : j;`, `j = j >
    B ? j : B;` (or `<=`, `>=`, the sides of the test swapped); else None."""
    if isinstance(s, ir.If) and s.other is None and len(s.then.stmts) == 1:
        st = s.then.stmts[0]
        if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and st.lhs.sym is sym:
            side = _side(s.test, sym, st.rhs, True)
            return (side, st.rhs, st) if side is not None else None
    if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref) and s.lhs.sym is sym and \
            isinstance(s.rhs, ir.Cond):
        c = s.rhs
        for bound, bound_if_true in ((c.then, True), (c.other, False)):
            kept = c.other if bound_if_true else c.then
            if isinstance(kept, ir.Ref) and kept.sym is sym:
                side = _side(c.test, sym, bound, bound_if_true)
                if side is not None:
                    return side, bound, s
    return None


def _side(test, sym, bound, bound_if_true):
    """The side a choice of bound over sym bounds, bound taken where test holds
    (bound_if_true) or where it does not: test compares sym with bound itself."""
    if not isinstance(test, ir.Binary) or test.op not in FLIP or X.mentions(bound, sym):
        return None
    if isinstance(test.left, ir.Ref) and test.left.sym is sym and X.same_text(test.right, bound):
        op = test.op
    elif isinstance(test.right, ir.Ref) and test.right.sym is sym and \
            X.same_text(test.left, bound):
        op = FLIP[test.op]
    else:
        return None
    below = op in ("<", "<=")        # the bound taken where sym is below it: a lower bound
    return LOWER if below == bound_if_true else UPPER


# fmin and fmax of each floating-point type: whether each is the smaller of its arguments
_SMALLER = {name + suffix: name == "fmin" for name in ("fmin", "fmax")
            for suffix in ("", "f", "l")}


def float_bounds(e):
    """(lower, upper): integer expressions whose values bound the floating-point expression
    e from below and above (None for a side adgen cannot bound): e a whole number itself
    (whole_number), or fmin or fmax of such bounded values (`fmax(0.0, fmin(t / h, n -
    2.0))`: 0 and n - 2; t / h has neither)."""
    whole = whole_number(e)
    if whole is not None:
        return whole, X.clone(whole)
    if not (isinstance(e, ir.Call) and e.func in _SMALLER and len(e.args) == 2):
        return None, None
    (lo_a, hi_a), (lo_b, hi_b) = float_bounds(e.args[0]), float_bounds(e.args[1])
    # fmin is at most either argument, and at least the smaller of their lower bounds;
    # fmax the reverse. (A NaN argument is dropped: the result is the other.)
    if _SMALLER[e.func]:
        return _pick(lo_a, lo_b, True, False), _pick(hi_a, hi_b, True, True)
    return _pick(lo_a, lo_b, False, True), _pick(hi_a, hi_b, False, False)


def _pick(a, b, smaller, one_will_do):
    """The smaller (or the larger) of bounds a and b; where one_will_do, either one when
    the other is unknown (a bound of a minimum from above, of a maximum from below)."""
    if a is None or b is None:
        return (a if b is None else b) if one_will_do else None
    if smaller:
        return ir.Cond(ir.Binary("<=", a, b, ir.INT), X.clone(a), X.clone(b), ir.LONG)
    return ir.Call("adgen_imax", [a, b], ir.LONG)


def whole_number(e):
    """An integer expression equal to the floating-point expression e when e is a whole
    number: an integer converted (`n` in `n - 2.0`), a constant such as `2.0`, or sums,
    differences, products and negations of those; else None."""
    t = e.type.resolved() if e.type is not None else None
    if t is not None and t.is_int:
        return e
    if isinstance(e, ir.Const):
        m = re.fullmatch(r"(\d+)\.?0*[fFlL]?", e.text)
        return ir.Const(m.group(1), ir.INT) if m else None
    if isinstance(e, ir.Cast) and e.to.resolved().is_float:
        return whole_number(e.arg)
    if isinstance(e, ir.Unary) and e.op == "-":
        arg = whole_number(e.arg)
        return ir.Unary("-", arg, ir.LONG) if arg is not None else None
    if isinstance(e, ir.Binary) and e.op in ("+", "-", "*"):
        a, b = whole_number(e.left), whole_number(e.right)
        return ir.Binary(e.op, a, b, ir.LONG) if a is not None and b is not None else None
    return None
