"""Derivatives at the points where a function is not smooth, or where a partial of it is
infinite while the function is finite, and partials of huge or tiny operands: the tangent
and the adjoint must give the derivative of the branch the primal takes, never a NaN made of
0 * inf, and no overflow or underflow where the derivative itself is in range
(docs/rules.md, "Where a function is not smooth")."""
import math

import numpy as np
import pytest

import adgen

SOURCE = r"""
#include <math.h>

/* v / max(|v|, 1e-12): at v = 0 the Jacobian is I / 1e-12 */
void normalize(const double *v, double *u)
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double d = fmax(len, 1e-12);
    int i;
    for (i = 0; i < 3; i++)
        u[i] = v[i] / d;
}

/* the branch not taken has an infinite derivative at x = 0 */
double clamp_root(double x)
{
    return fmin(fmax(sqrt(x), 1.0), 4.0) + x * (x > 0.0 ? 0.0 : log(1.0 - x));
}

double magnitude(double x)
{
    return fabs(x);
}

double ratio(double x, double y)
{
    return x / y;
}

double angle(double x, double y)
{
    return atan2(x, y) + hypot(x, y) * 1e-160 + asinh(x) + acosh(y);
}

double signed_copy(double x, double y)
{
    return copysign(x, y) + fdim(x, y);
}
"""


@pytest.fixture(scope="module")
def src(tmp_path_factory):
    path = tmp_path_factory.mktemp("singular") / "singular.c"
    path.write_text(SOURCE)
    return str(path)


def both_jacobians(built, *args):
    """The Jacobian by the tangent and by the adjoint, each a dict of blocks."""
    return (built.jacobian(*args, method="forward"), built.jacobian(*args, method="reverse"))


def test_guarded_division_by_a_norm_at_zero(src, adgen_cache):
    f = adgen.build(src, head="normalize(u)/(v)", cache_dir=adgen_cache)
    v, u = np.zeros(3), np.zeros(3)
    for J in both_jacobians(f, v, u):
        assert np.array_equal(J["u", "v"], np.eye(3) / 1e-12), J["u", "v"]
    # away from zero, still the ordinary derivative
    v = np.array([0.3, -0.4, 1.2])
    n = np.linalg.norm(v)
    expect = np.eye(3) / n - np.outer(v, v) / n ** 3
    for J in both_jacobians(f, v, u):
        assert np.allclose(J["u", "v"], expect, rtol=1e-13, atol=0)


def test_piecewise_functions_take_the_derivative_of_their_branch(src, adgen_cache):
    f = adgen.build(src, head="clamp_root(clamp_root)/(x)", cache_dir=adgen_cache)
    for x, expect in [(0.0, 0.0), (4.0, 0.25), (100.0, 0.0), (-1.0, math.log(2) + 0.5)]:
        for J in both_jacobians(f, x):
            assert J["clamp_root", "x"][0, 0] == pytest.approx(expect, rel=1e-15, abs=0), x


def test_the_sign_bit_decides_the_slope_of_fabs(src, adgen_cache):
    f = adgen.build(src, head="magnitude(magnitude)/(x)", cache_dir=adgen_cache)
    for x, slope in [(0.0, 1.0), (-0.0, -1.0), (2.5, 1.0), (-2.5, -1.0)]:
        for J in both_jacobians(f, x):
            assert J["magnitude", "x"][0, 0] == slope, x


def test_copysign_and_fdim_at_zero_and_ties(src, adgen_cache):
    f = adgen.build(src, head="signed_copy(signed_copy)/(x y)", cache_dir=adgen_cache)
    # copysign(x, -0.0) = -|x|: slope -1 for x > 0, plus fdim's 1 (x > y); fdim's slope
    # at a tie is 0 (x > y is false)
    for x, y, dx in [(2.0, -0.0, 0.0), (2.0, 0.0, 2.0), (-2.0, 0.0, -1.0), (1.5, 1.5, 1.0)]:
        for J in both_jacobians(f, x, y):
            assert J["signed_copy", "x"][0, 0] == dx, (x, y)


def test_partials_of_huge_and_tiny_operands_stay_in_range(src, adgen_cache):
    f = adgen.build(src, head="ratio(ratio)/(x y)", cache_dir=adgen_cache)
    # d(x/y)/dy = -x/y^2 = -1e-170: y*y alone would overflow
    for J in both_jacobians(f, 1e150, 1e160):
        assert J["ratio", "y"][0, 0] == pytest.approx(-1e-170, rel=1e-15, abs=0)
        assert J["ratio", "x"][0, 0] == pytest.approx(1e-160, rel=1e-15, abs=0)
    g = adgen.build(src, head="angle(angle)/(x y)", cache_dir=adgen_cache)
    x, y = 1e200, 3e200
    h = math.hypot(x, y)
    expect_x = y / h / h + x / h * 1e-160 + 1 / x
    expect_y = -x / h / h + y / h * 1e-160 + 1 / y
    for J in both_jacobians(g, x, y):
        assert J["angle", "x"][0, 0] == pytest.approx(expect_x, rel=1e-14, abs=0)
        assert J["angle", "y"][0, 0] == pytest.approx(expect_y, rel=1e-14, abs=0)
    # hypot and atan2 at the origin: the derivative does not exist; a zero seed or zero
    # tangent in the other argument still gives no NaN where the function is finite
    J = g.jacobian(0.0, 2.0, method="reverse")
    assert np.isfinite(J["angle", "y"][0, 0])
