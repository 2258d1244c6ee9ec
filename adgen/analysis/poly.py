"""Integer polynomials over a function's size parameters, with exact rational coefficients.

Used to count how often a statement runs inside a nest of counted loops (a packed-storage
counter `k++` in a triangular nest reaches `n*(n-1)/2`), which needs sums over a loop
variable in closed form. Atoms are integer expressions that stay fixed (parameters, fields
of parameters, loop variables), keyed by their C text.
"""
from fractions import Fraction

from adgen import ir


class NotPolynomial(Exception):
    """An integer expression or loop is not of the polynomial shape the closed forms
    need."""


class Poly:
    """sum of coefficient * product of atoms; terms maps a sorted tuple of atom keys (with
    repetition for powers) to a Fraction."""
    __slots__ = ("terms", "atoms")

    def __init__(self, terms=None, atoms=None):
        self.terms = {k: v for k, v in (terms or {}).items() if v}
        self.atoms = dict(atoms or {})      # key -> IR expression

    @staticmethod
    def _made(terms, atoms):
        """A Poly over dicts made for it alone, taken as they are but for zero terms (the
        arithmetic below makes many: no copies)."""
        p = Poly.__new__(Poly)
        p.terms = {k: v for k, v in terms.items() if v}
        p.atoms = atoms
        return p

    @staticmethod
    def const(c):
        return Poly({(): Fraction(c)})

    @staticmethod
    def atom(key, expr):
        return Poly({(key,): Fraction(1)}, {key: expr})

    def __add__(self, other):
        terms = dict(self.terms)
        for k, v in other.terms.items():
            terms[k] = terms.get(k, 0) + v
        return Poly._made(terms, {**self.atoms, **other.atoms})

    def __neg__(self):
        return Poly._made({k: -v for k, v in self.terms.items()}, dict(self.atoms))

    def __sub__(self, other):
        return self + (-other)

    def __mul__(self, other):
        terms = {}
        for ka, va in self.terms.items():
            for kb, vb in other.terms.items():
                k = tuple(sorted(ka + kb))
                terms[k] = terms.get(k, 0) + va * vb
        return Poly._made(terms, {**self.atoms, **other.atoms})

    def scale(self, c):
        return Poly({k: v * c for k, v in self.terms.items()}, self.atoms)

    def degree_in(self, key):
        return max((k.count(key) for k in self.terms), default=0)

    def uses(self, key):
        return any(key in k for k in self.terms)

    def constant_value(self):
        """The value when the polynomial is a constant, else None."""
        if all(k == () for k in self.terms):
            return self.terms.get((), Fraction(0))
        return None

    def divide_exact(self, other):
        """self / other when other is one term and every quotient coefficient is an
        integer (so the quotient is an integer wherever the atoms are); else None."""
        if len(other.terms) != 1:
            return None
        (okey, ocoef), = other.terms.items()
        out = {}
        for key, coef in self.terms.items():
            rest = list(key)
            for a in okey:
                if a not in rest:
                    return None
                rest.remove(a)
            q = coef / ocoef
            if q.denominator != 1:
                return None
            out[tuple(rest)] = q
        return Poly(out, {**self.atoms, **other.atoms})

    def constant_part(self):
        return self.terms.get((), Fraction(0))

    def coefficients_in(self, key):
        """[p0, p1, ...] with self = sum p_i * key**i, the p_i free of key."""
        out = [{} for _ in range(self.degree_in(key) + 1)]
        for k, v in self.terms.items():
            # (one term of each power per rest: the terms' keys differ)
            out[k.count(key)][tuple(a for a in k if a != key)] = v
        return [Poly._made(terms, dict(self.atoms)) for terms in out]

    def substitute(self, key, value):
        """self with the atom key replaced by the polynomial value."""
        if not self.uses(key):
            return Poly._made(dict(self.terms), dict(self.atoms))
        number = value.constant_value()
        if number is not None:
            # a number (a type's size): each term scaled by its power, in one pass
            terms = {}
            for k, v in self.terms.items():
                rest = tuple(a for a in k if a != key)
                terms[rest] = terms.get(rest, 0) + v * number ** (len(k) - len(rest))
            return Poly._made(terms, dict(self.atoms))
        out = Poly()
        power = Poly.const(1)
        for i, c in enumerate(self.coefficients_in(key)):
            if i:
                power = power * value
            out = out + c * power
        return out

    def nonneg_for_nonneg_atoms(self):
        """True when every coefficient is non-negative (so the value is, for atoms >= 0)."""
        return all(v >= 0 for v in self.terms.values())

    def to_ir(self):
        """The polynomial as a C integer expression: (integer polynomial) / denominator,
        exact because the value is an integer."""
        denom = 1
        for v in self.terms.values():
            denom = denom * v.denominator // _gcd(denom, v.denominator)
        expr = None
        for k in sorted(self.terms, key=lambda k: (-len(k), k)):
            c = self.terms[k] * denom
            mag = abs(int(c))
            term = ir.Const(str(mag), ir.LONG) if mag != 1 or not k else None
            for key in k:
                a = self.atoms[key]
                term = a if term is None else ir.Binary("*", term, a, ir.LONG)
            if expr is None:
                expr = term if c > 0 else ir.Unary("-", term, ir.LONG)
            else:
                expr = ir.Binary("+" if c > 0 else "-", expr, term, ir.LONG)
        if expr is None:
            return ir.Const("0", ir.LONG)
        if denom != 1:
            expr = ir.Binary("/", expr, ir.Const(str(denom), ir.LONG), ir.LONG)
        return expr


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def power_sum(a, b, degree):
    """sum_{v=a}^{b} v**degree in closed form (degree 0, 1 or 2), a and b polynomials."""
    def upto(n):
        # sum_{v=0}^{n} v**degree
        if degree == 0:
            return n + Poly.const(1)
        if degree == 1:
            return (n * (n + Poly.const(1))).scale(Fraction(1, 2))
        return (n * (n + Poly.const(1)) * (n.scale(2) + Poly.const(1))).scale(Fraction(1, 6))
    return upto(b) - upto(a - Poly.const(1))


def range_sum(p, key, a, b):
    """sum_{key=a}^{b} p in closed form, or None when p is of degree above 2 in key."""
    coeffs = p.coefficients_in(key)
    if len(coeffs) > 3:
        return None
    out = Poly()
    for i, c in enumerate(coeffs):
        out = out + c * power_sum(a, b, i)
    return out


def nonneg_within(p, outer):
    """True when polynomial p is >= 0 for every value the variables of the `outer`
    loops take (p affine in each, the fixed integers non-negative)."""
    for depth in range(len(outer) - 1, -1, -1):
        var, first, last = outer[depth]
        coeffs = p.coefficients_in(var.name)
        if len(coeffs) > 2:
            return False
        if len(coeffs) == 2:
            # the minimum is at the end of the range the slope points away from (the
            # slope may hold fixed integers and outer counters: `(k - i) * n`)
            if nonneg_within(coeffs[1], outer[:depth]):
                p = p.substitute(var.name, first)
            elif nonneg_within(-coeffs[1], outer[:depth]):
                p = p.substitute(var.name, last)
            else:
                return False
    return p.nonneg_for_nonneg_atoms()
