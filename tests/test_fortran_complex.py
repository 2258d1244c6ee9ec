"""Random COMPLEX arithmetic: small Fortran programs whose complex expressions (sums,
products, quotients, powers, conjg, exp, log, sin, cos, literals, cmplx, elements of an
array, comparisons) adgen rewrites into real arithmetic, checked by the harness against
gfortran's own complex arithmetic (the primal values computed by the derivative routines)
and finite differences. The hand-written programs are testsuite/fortran/complex_*.f90.

python -m tests.test_fortran_complex SEED prints the program of a seed."""
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

SEEDS = range(1, 17)
_LEAVES = ("z1", "z2", "z3(k)", "z3(2)", "(0.5d0, -0.25d0)", "x(1)", "1.5d0", "2",
           "cmplx(x(2), x(3), 8)")


def _complex(r, depth):
    """A complex (or now and then real) expression; operands are parenthesized as written
    by hand, so that what adgen regroups is the precedence of the operators."""
    if depth == 0 or r.random() < 0.25:
        return r.choice(_LEAVES)
    a, b = _complex(r, depth - 1), _complex(r, depth - 1)
    # (values kept moderate: a quotient by 2.5 + |b|^2 as a complex value, damped
    # exponentials and powers, so that finite differences stay trustworthy)
    return r.choice((
        f"{a} + {b}", f"{a} - 0.5d0 * {b} * {b}", f"0.5d0 * {a} * {b}",
        f"({a}) / (2.5d0 + ({b}) * conjg({b} + (0d0, 0d0)))",
        f"conjg({a} + (0d0, 0d0))", f"exp(0.1d0 * ({a}))", f"sin(0.5d0 * ({a}))",
        f"cos(0.5d0 * ({a}))", f"0.5d0 * ({a}) ** {r.randint(1, 3)}",
        f"log(2.5d0 + ({a}) * conjg({a} + (0d0, 0d0)))", f"(-({a}))", f"{a} - {b}"))


def _real(r, depth):
    a = _complex(r, depth)
    return r.choice((f"abs({a})", f"real({a})", f"aimag({a} + (0d0, 0d0))", f"dble({a})"))


def _short(make, r, depth, limit=100):
    """An expression of make no longer than limit characters (a line stays short)."""
    while True:
        text = make(r, depth)
        if len(text) <= limit:
            return text


def program(seed):
    r = random.Random(seed)
    lines = []
    for _ in range(4):
        # (not z3(1) as well as z3(k): gfortran 12 at -O1 and above drops the real part of
        # a complex constant stored to z3(k) that a store to z3(1) follows)
        target = r.choice(("z1", "z2", "z3(k)"))
        lines.append(f"    {target} = {_short(_complex, r, 3)}")
        if r.random() < 0.3:
            lines.append(f"    if ({_short(_real, r, 2, 50)} > 1.0d0) "
                         f"{r.choice(('z1', 'z2'))} = {_short(_complex, r, 2, 50)}")
        if r.random() < 0.2:
            lines.append(f"    if (z1 == z2 .or. z1 /= z3(k)) e = e + 0.1d0 * "
                         f"{_short(_real, r, 1, 50)}")
    body = "\n".join(lines)
    return (f"! adgen-test\n! head: f(e)/(x)\n! arg x: real(8)[3] = uniform(0.2, 0.8)\n"
            f"! arg e: real(8)\n!\n! random COMPLEX arithmetic, seed {seed}\n"
            f"subroutine f(x, e)\n  implicit none\n  real(8), intent(in) :: x(3)\n"
            f"  real(8), intent(out) :: e\n  complex(8) :: z1, z2, z3(3)\n  integer :: k\n"
            f"  e = 0\n  z1 = cmplx(x(1), x(2), 8)\n  z2 = cmplx(x(3), -x(1), 8)\n"
            f"  z3 = [z1, z2, z1 * z2]\n  do k = 1, 3\n{body}\n"
            f"    e = e + {_short(_real, r, 2, 80)} * 0.1d0\n  end do\n"
            f"  e = e + abs(z1) + real(z2) + aimag(sum(z3)) + 0.01d0 * x(1) * x(2) * x(3)\n"
            f"end subroutine f\n")


@pytest.fixture(scope="module")
def gfortran():
    if harness.ensure_gfortran():
        pytest.skip("gfortran is needed for the random COMPLEX programs")


@pytest.mark.parametrize("seed", SEEDS)
def test_random_complex_arithmetic(seed, tmp_path, gfortran):
    source = tmp_path / f"complex_{seed}.f90"
    source.write_text(program(seed))
    try:
        harness.check_program(source, tmp_path)
        return
    except (AssertionError, harness.SpecError) as exc:
        message = str(exc)
    pytest.fail(f"seed {seed}:\n{message}", pytrace=False)


if __name__ == "__main__":
    print(program(int(sys.argv[1])), end="")
