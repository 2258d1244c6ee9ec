"""Second derivatives by adgen's tangent of its own adjoint (docs/second-order.md): the
adjoint `f_b.c` given back to `adgen --forward` with no option the first run did not need,
the result `f_b_d` compiled with -Werror, its Hessian-vector products checked against
central differences of the gradient and by the symmetry test u.(H v) = v.(H u)."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness import CC, SANITIZE, WERROR_FLAGS

# Each program: `double f(int n, const double *x)` with x of n elements, written to reach
# one mechanism of the adjoint that its tangent must carry.
PROGRAMS = {
    # an overwritten accumulator and a branch flag (adgen_push, adgen_push_int)
    "branches": r"""
#include <math.h>
double f(int n, const double *x)
{
    double e = 0.0, s = 1.0;
    for (int i = 0; i + 1 < n; i++) {
        double d = x[i + 1] - x[i];
        s = s * cos(d);
        e += 0.5 * (d - 1.0) * (d - 1.0) + s * d * d;
        if (d > 0)
            e = e * (1.0 + 0.1 * d);
    }
    return e;
}
""",
    # an array overwritten in place, element by element in a loop (pushes of a block)
    "in_place": r"""
#include <math.h>
#include <stdlib.h>
double f(int n, const double *x)
{
    double *u = malloc((size_t)n * sizeof(*u));
    double s = 0.0;
    for (int i = 0; i < n; i++)
        u[i] = x[i];
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < n; i++)
            u[i] = sin(u[i]) + 0.5 * u[i] * u[(i + 1) % n];
    for (int i = 0; i < n; i++)
        s += u[i] * u[i];
    free(u);
    return s;
}
""",
    # helpers called in a loop: their forward and backward sweeps apart (split mode),
    # values saved through pointers into the caller's arrays
    "helpers": r"""
#include <math.h>
static void scale(double *v, double a) { *v = *v * a + sqrt(1.0 + *v * *v); }
static double pair(const double *a, const double *b) { return exp(-(*a - *b) * (*a - *b)); }
double f(int n, const double *x)
{
    double w[16], s = 0.0;      /* (n <= 16) */
    for (int i = 0; i < n; i++)
        w[i] = x[i];
    for (int i = 0; i < n; i++) {
        scale(&w[i], 1.0 + 0.1 * i);
        scale(&w[i], x[n - 1 - i]);
    }
    for (int i = 0; i + 1 < n; i++)
        s += pair(&w[i], &w[i + 1]) * w[i];
    return s;
}
""",
    # recursion: calls in joint mode, run again in the backward sweep with their result
    # dropped there (the first run is told x's length: FIRST_RUN_SIZES)
    "recursion": r"""
#include <math.h>
static double horner(const double *c, int k, double t)
{
    if (k == 0)
        return c[0];
    return c[k] + t * horner(c, k - 1, t);
}
double f(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += sin(0.2 * horner(x, n - 1, 0.3 * x[i]));
    return s;
}
""",
    # piecewise functions at work (fmax, fabs) and a division
    "piecewise": r"""
#include <math.h>
double f(int n, const double *x)
{
    double len = 0.0, s = 0.0;
    for (int i = 0; i < n; i++)
        len += x[i] * x[i];
    len = sqrt(len);
    for (int i = 0; i < n; i++)
        s += fabs(x[i]) * x[i] / fmax(len, 0.5) + pow(fabs(x[i]) + 1.0, 1.5);
    return s;
}
""",
    # a time loop under binomial checkpointing: its kept states are typed copies
    # (memcpy(ckp_state_u + slot * 16, ...)) whose tangents are copied beside them
    "checkpointed": r"""
#include <math.h>
double f(int n, const double *x)
{
    double u[16], e = 0.0;      /* (n <= 16) */
    for (int i = 0; i < n; i++)
        u[i] = x[i];
#pragma adgen binomial_ckp(20, 3, 0)
    for (int t = 0; t < 20; t++) {
        for (int i = 0; i + 1 < n; i++)
            u[i] = u[i] + 0.1 * sin(u[i + 1] - u[i]) * u[i];
        e += u[0] * u[0] + 0.01 * u[n - 1];
    }
    return e;
}
""",
    # a spring network: the energy of springs between points of the plane
    "springs": r"""
#include <math.h>
double f(int n, const double *x)
{
    /* points (x[i], x[i + 1]) for even i; a spring of rest length 1 between each two */
    double e = 0.0;
    for (int i = 0; i + 1 < n; i += 2)
        for (int j = 0; j + 1 < n; j += 2) {
            if (j <= i)
                continue;
            double dx = x[j] - x[i], dy = x[j + 1] - x[i + 1];
            double len = sqrt(dx * dx + dy * dy);
            e += 0.5 * (len - 1.0) * (len - 1.0);
        }
    return e;
}
""",
}

# --size options of the first run where adgen cannot find a length itself: the second run
# needs none
FIRST_RUN_SIZES = {"recursion": ["--size", "x=n"],
                   # (the reads after `if (j <= i) continue;` give no length of their own:
                   # docs/c-subset.md, guarded accesses)
                   "springs": ["--size", "x=n"]}

DRIVER = r"""
#include <math.h>
#include <stdio.h>
void f_b(int n, const double *x, double *xb, double fb);
void f_b_d(int n, const double *x, const double *xd, double *xb, double *xbd, double fb);
enum { N = 8 };
int main(void)
{
    double x[N], u[N], v[N], g[N], hu[N], hv[N], gp[N], gm[N], xp[N], xm[N];
    double h = 1e-5, fd_err = 0.0, scale = 0.0, uhv = 0.0, vhu = 0.0;
    for (int i = 0; i < N; i++) {
        x[i] = 0.4 * i + 0.3 * sin(3.0 * i) - 1.1;
        u[i] = cos(1.7 * i + 0.2);
        v[i] = sin(0.9 * i + 0.5);
    }
    f_b_d(N, x, v, g, hv, 1.0);
    f_b_d(N, x, u, g, hu, 1.0);
    for (int i = 0; i < N; i++) {
        xp[i] = x[i] + h * v[i];
        xm[i] = x[i] - h * v[i];
    }
    f_b(N, xp, gp, 1.0);
    f_b(N, xm, gm, 1.0);
    for (int i = 0; i < N; i++) {
        fd_err = fmax(fd_err, fabs((gp[i] - gm[i]) / (2 * h) - hv[i]));
        scale = fmax(scale, fabs(hv[i]));
        uhv += u[i] * hv[i];
        vhu += v[i] * hu[i];
    }
    printf("%.17g %.17g %.17g %.17g\n", fd_err, scale, uhv, vhu);
    return 0;
}
"""


def _adgen(*args):
    proc = subprocess.run([sys.executable, "-m", "adgen", *args], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    return proc


def _compile(path, out):
    cmd = [CC, *WERROR_FLAGS, "-O1", *SANITIZE, "-c", str(path), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stderr}"
    return out


@pytest.mark.parametrize("stack", ["heap", "static"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_hessian_vector_products(name, stack, tmp_path):
    src = tmp_path / "model.c"
    src.write_text(PROGRAMS[name])
    adj, hvp = tmp_path / "model_b.c", tmp_path / "model_b_d.c"
    kind = ["--stack=static", "--stack-size", "65536"] if stack == "static" else []
    _adgen("--reverse", str(src), "--head", "f(f)/(x)", "-o", str(adj),
           *FIRST_RUN_SIZES.get(name, []), *kind)
    # the lengths adgen found travel in the adjoint: no --size the first run did not need
    assert "#pragma adgen size(xb, " in adj.read_text()
    _adgen("--forward", str(adj), "--head", "f_b(xb)/(x)", "-o", str(hvp))
    text = hvp.read_text()
    assert text.count("adgen_push(const void") <= 1, "the runtime is written once"
    driver = tmp_path / "driver.c"
    driver.write_text(DRIVER)
    objs = [_compile(p, p.with_suffix(".o")) for p in (adj, hvp, driver)]
    exe = tmp_path / "driver"
    link = [CC, *SANITIZE, *map(str, objs), "-lm", "-o", str(exe)]
    proc = subprocess.run(link, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    fd_err, scale, uhv, vhu = map(float, proc.stdout.split())
    assert scale > 0.0
    assert fd_err <= 1e-6 * scale, f"H v against differences of the gradient: {fd_err}"
    assert abs(uhv - vhu) <= 1e-12 * max(abs(uhv), abs(vhu)), (uhv, vhu)


# f_b_dv in DIRS directions against f_b_d in each alone; prints the largest difference and
# the largest entry. X_CONST: `const ` where the head only reads x, empty where it writes
# it (then x, and so its tangents, are in and out: each call starts from the same values,
# and from zeroed xb, which the adjoint may add into).
COLUMNS_DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
void f_b_d(int n, X_CONSTdouble *x, X_CONSTdouble *xd, double *xb, double *xbd, double fb);
void f_b_dv(int n, X_CONSTdouble *x, X_CONSTdouble *xd, double *xb, double *xbd, double fb,
            int nbdirs);
enum { N = 8, DIRS = 3 };
int main(void)
{
    double x0[N], x[N], xd0[N * DIRS], xd[N * DIRS], g[N], gv[N], hv[N * DIRS], one[N];
    double h1[N], worst = 0.0, scale = 0.0;
    for (int i = 0; i < N; i++) {
        x0[i] = 0.4 * i + 0.3 * sin(3.0 * i) - 1.1;
        for (int k = 0; k < DIRS; k++)
            xd0[i * DIRS + k] = cos(1.7 * i + 0.9 * k + 0.2);
    }
    memcpy(x, x0, sizeof x);
    memcpy(xd, xd0, sizeof xd);
    memset(gv, 0, sizeof gv);
    memset(hv, 0, sizeof hv);
    f_b_dv(N, x, xd, gv, hv, 1.0, DIRS);
    for (int k = 0; k < DIRS; k++) {
        for (int i = 0; i < N; i++)
            one[i] = xd0[i * DIRS + k];
        memcpy(x, x0, sizeof x);
        memset(g, 0, sizeof g);
        memset(h1, 0, sizeof h1);
        f_b_d(N, x, one, g, h1, 1.0);
        for (int i = 0; i < N; i++) {
            worst = fmax(worst, fabs(h1[i] - hv[i * DIRS + k]));
            worst = fmax(worst, fabs(g[i] - gv[i]));
            scale = fmax(scale, fabs(h1[i]));
        }
    }
    printf("%.17g %.17g\n", worst, scale);
    return 0;
}
"""


@pytest.mark.parametrize("stack", ["heap", "static"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_several_hessian_columns_in_one_sweep(name, stack, tmp_path):
    """`--vector` over the adjoint (f_b_dv): the tangents of the values the adjoint stores
    travel beside them on its stack, nbdirs per value, so one call gives H times several
    directions, each what f_b_d gives for it alone."""
    src = tmp_path / "model.c"
    src.write_text(PROGRAMS[name])
    adj = tmp_path / "model_b.c"
    kind = ["--stack=static", "--stack-size", "65536"] if stack == "static" else []
    _adgen("--reverse", str(src), "--head", "f(f)/(x)", "-o", str(adj),
           *FIRST_RUN_SIZES.get(name, []), *kind)
    _columns_agree(tmp_path, adj, "f_b(xb)/(x)", "const ")


def _columns_agree(tmp_path, adj, head, x_const):
    """The tangent and the vector tangent of the adjoint adj, built with COLUMNS_DRIVER
    (x_const: its X_CONST): their largest difference within 1e-13 of the largest entry."""
    for mode, out in (("--forward", "m_d.c"), ("--vector", "m_dv.c")):
        _adgen(mode, str(adj), "--head", head, "-o", str(tmp_path / out))
    driver = tmp_path / "driver.c"
    driver.write_text(COLUMNS_DRIVER.replace("X_CONST", x_const))
    objs = [_compile(p, p.with_suffix(".o"))
            for p in (adj, tmp_path / "m_d.c", tmp_path / "m_dv.c", driver)]
    exe = tmp_path / "driver"
    proc = subprocess.run([CC, *SANITIZE, *map(str, objs), "-lm", "-o", str(exe)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    worst, scale = map(float, proc.stdout.split())
    assert scale > 0.0
    assert worst <= 1e-13 * scale, (worst, scale)


IN_PLACE_UNSIZED = r"""
#include <math.h>
double f(int n, double *x)
{
    double s = 0.0;
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < n; i++)
            x[i] = sin(x[i]) + 0.3 * x[i] * x[(i + 1) % n];
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}
"""


def test_several_hessian_columns_through_the_log(tmp_path):
    """The adjoint of a function that overwrites its argument, whose length adgen does
    not know, logs the final values it overwrites (adgen_keep); its vector tangent logs
    their tangents in the nbdirs directions beside them."""
    src = tmp_path / "model.c"
    src.write_text(IN_PLACE_UNSIZED)
    adj = tmp_path / "model_b.c"
    _adgen("--reverse", str(src), "--head", "f(f)/(x)", "-o", str(adj))
    assert "adgen_pop_keep(&" in adj.read_text()
    _columns_agree(tmp_path, adj, "f_b(xb)/(x xb)", "")


def test_reverse_over_adjoint_is_refused(tmp_path):
    """Only the tangent of an adjoint that uses its stack is supported: the adjoint of it
    is an error at the stack's first use, never code missing its derivative."""
    src = tmp_path / "model.c"
    src.write_text(PROGRAMS["branches"])
    adj = tmp_path / "model_b.c"
    _adgen("--reverse", str(src), "--head", "f(f)/(x)", "-o", str(adj))
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(adj), "--head",
                           "f_b(xb)/(x)", "-o", str(tmp_path / "model_b_b.c")],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "model_b.c:" in proc.stderr and "value stack" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_size_directive_errors(tmp_path):
    """`#pragma adgen size` names a parameter of its function, once."""
    src = tmp_path / "m.c"
    src.write_text("double f(int n, const double *x)\n{\n#pragma adgen size(y, n)\n"
                   "    return x[0] * x[n - 1];\n}\n")
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                           "f(f)/(x)", "-o", str(tmp_path / "m_b.c")],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "m.c:3:" in proc.stderr and "'y' is not a parameter of 'f'" in proc.stderr, \
        proc.stderr


def test_size_directive_in_a_program(tmp_path):
    """A program may state a length itself, as --size would: the adjoint then sets the
    whole gradient, where without it it adds into what the caller gives."""
    src = tmp_path / "m.c"
    body = "    double s = 0.0;\n    for (int i = 0; i < n; i++) s += x[(7 * i) % n] * x[i];\n" \
           "    return s;\n}\n"
    out = tmp_path / "m_b.c"
    src.write_text("double f(int n, const double *x)\n{\n" + body)
    _adgen("--reverse", str(src), "--head", "f(f)/(x)", "-o", str(out))
    assert "memset(xb" not in out.read_text()
    src.write_text("double f(int n, const double *x)\n{\n#pragma adgen size(x, n)\n" + body)
    _adgen("--reverse", str(src), "--head", "f(f)/(x)", "-o", str(out))
    assert "memset(xb, 0, n * sizeof(*xb))" in out.read_text()


# ------------------------------------------------- every test program, through the API
import numpy as np  # noqa: E402

import api_support as S  # noqa: E402

PROGRAMS_API = [p for p in S.C_PROGRAMS if S.first_head_ok(p)]


def _hvp_check(built, args, seed, h):
    """(worst error of H v against central differences of the gradient, step h, relative
    to the largest |H v|; |u.H v - v.H u| relative to the larger) at random u, v."""
    rng = np.random.default_rng(seed)
    idx = {n: i for i, n in enumerate(built.parameters)}
    u, v = {}, {}
    for x in built.independents:
        shape = np.shape(args[idx[x]])
        u[x], v[x] = rng.uniform(-1, 1, shape), rng.uniform(-1, 1, shape)
    hv, hu = built.hvp(*args, tangents=v), built.hvp(*args, tangents=u)

    def moved(sign, h):
        a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        for x in built.independents:
            moved = a[idx[x]] + sign * h * v[x]
            a[idx[x]] = moved.astype(a[idx[x]].dtype) if isinstance(a[idx[x]], np.ndarray) \
                else moved
        return built.gradient(*a)
    gp, gm = moved(1, h), moved(-1, h)
    scale = max(max(float(np.max(np.abs(hv[x]))) for x in built.independents), 1e-300)
    fd = max(float(np.max(np.abs((np.asarray(gp[x]) - np.asarray(gm[x])) / (2 * h) - hv[x])))
             for x in built.independents) / scale
    uhv = sum(float(np.sum(u[x] * hv[x])) for x in built.independents)
    vhu = sum(float(np.sum(v[x] * hu[x])) for x in built.independents)
    sym = abs(uhv - vhu) / max(abs(uhv), abs(vhu), 1e-300)
    return fd, sym, scale


@pytest.mark.parametrize("source", PROGRAMS_API, ids=[p.stem for p in PROGRAMS_API])
def test_hessian_vector_product_of_each_program(source, adgen_cache, tmp_path):
    """The Hessian-vector product of the first head of every C test program whose head has
    one scalar dependent: against central differences of the gradient, and symmetric."""
    built, spec, head = S.build_head(source, cache_dir=adgen_cache)
    if len(built.dependents) != 1:
        pytest.skip("no scalar dependent")
    if not built.second_order:
        pytest.skip(f"no tangent of the adjoint: {built.second_order_error}")
    args = S.head_arguments(source, head, spec, tmp_path, seed=spec.seed)
    a = built.bind("", args, {})
    if built.dependents[0] != built.name and np.size(a[built.dependents[0]]) != 1:
        pytest.skip("no scalar dependent")
    single = any(isinstance(x, np.ndarray) and x.dtype == np.float32 for x in args)
    try:
        fd, sym, scale = S.isolated(_hvp_check, built, args, spec.seed,
                                    1e-2 if single else 1e-5)
    except AssertionError as exc:
        raise AssertionError(f"{head}: {exc} (files in {built.path})") from None
    if scale < 1e-12:
        assert fd * scale < 1e-8, f"{head}: H v is zero, differences of the gradient are not"
        return
    fd_tol, sym_tol = (5e-2, 1e-4) if single else (1e-5, 1e-10)
    assert fd <= fd_tol, f"{head}: H v against differences of the gradient: {fd:.3g}"
    assert sym <= sym_tol, f"{head}: u.(H v) - v.(H u), relative: {sym:.3g}"


ROSENBROCK = r"""
double rosen(int n, const double *x, double a)
{
    double s = 0.0;
    for (int i = 0; i + 1 < n; i++)
        s += a * (x[i + 1] - x[i] * x[i]) * (x[i + 1] - x[i] * x[i]) + (1 - x[i]) * (1 - x[i]);
    return s;
}
"""


def test_check_order_2(tmp_path):
    """`adgen check --order 2` checks Hessian-vector products too; a head without one
    scalar dependent has none to check, which fails the check rather than passing it."""
    src = tmp_path / "rb.c"
    src.write_text(ROSENBROCK)
    (tmp_path / "in.json").write_text('{"n": 5}')
    run = [sys.executable, "-m", "adgen", "check", str(src), "--inputs",
           str(tmp_path / "in.json"), "--order", "2"]
    proc = subprocess.run(run + ["--head", "rosen(rosen)/(x a)"], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Hessian-vector product H v against central differences" in proc.stdout
    assert "symmetry: u.(H v)" in proc.stdout and "PASS" in proc.stdout
    src.write_text(ROSENBROCK.replace("double rosen(int n, const double *x, double a)",
                                      "double rosen(int n, double *x, double a)")
                   .replace("    return s;", "    x[0] = s;\n    return s;"))
    proc = subprocess.run(run + ["--head", "rosen(rosen x)/(a)"], capture_output=True,
                          text=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "no Hessian-vector products: Hessian-vector products need one dependent" in \
        proc.stdout, proc.stdout


def test_api_hvp_and_hessian(tmp_path, adgen_cache):
    """built.hvp and built.hessian: the Rosenbrock function's Hessian as written by hand."""
    import adgen
    src = tmp_path / "rb.c"
    src.write_text(ROSENBROCK)
    built = adgen.build(str(src), head="rosen(rosen)/(x a)", cache_dir=adgen_cache)
    n, a = 4, 3.0
    x = np.array([0.3, -0.7, 1.1, 0.4])
    H = np.zeros((n, n))
    for i in range(n - 1):
        r = x[i + 1] - x[i] ** 2
        H[i, i] += a * (8 * x[i] ** 2 - 4 * r) + 2
        H[i, i + 1] += -4 * a * x[i]
        H[i + 1, i] += -4 * a * x[i]
        H[i + 1, i + 1] += 2 * a
    got = built.hessian(n, x, a)
    assert np.allclose(got["x", "x"], H, rtol=1e-13, atol=1e-13)
    dxa = [2 * (x[i + 1] - x[i] ** 2) * (-2 * x[i]) for i in range(n - 1)] + [0.0]
    dxa = [d + (2 * (x[i] - x[i - 1] ** 2) if i else 0.0) for i, d in enumerate(dxa)]
    assert np.allclose(got["x", "a"].ravel(), dxa, rtol=1e-13, atol=1e-13)
    assert np.allclose(got["a", "x"].ravel(), dxa, rtol=1e-13, atol=1e-13)
    v = np.array([1.0, -2.0, 0.5, 0.25])
    hv = built.hvp(n, x, a, tangents={"x": v})
    assert np.allclose(hv["x"], H @ v, rtol=1e-13, atol=1e-13)
    assert abs(hv["a"] - float(np.dot(dxa, v))) <= 1e-12


FORTRAN_HEADS = """
module chain_m
  implicit none
contains
  real(8) function chain(n, x, k)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), k
    integer :: i
    chain = 0d0
    do i = 1, n - 1
      chain = chain + k * (x(i + 1) - x(i) - 1d0)**2 + 0.1d0 * x(i)**4
    end do
  end function
end module
subroutine weighted(n, x, a, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), a
  real(8), intent(out) :: e
  integer :: i
  e = 0d0
  do i = 1, n
    e = e + a * sin(x(i)) * x(i)**2
  end do
end subroutine
"""


@pytest.mark.skipif(shutil.which(os.environ.get("FC", "gfortran")) is None,
                    reason="gfortran is not installed")
def test_api_hvp_and_hessian_of_fortran_heads(tmp_path, adgen_cache):
    """built.hvp and built.hessian of Fortran heads (every argument by reference, the
    adjoint energy_b_, its tangent energy_b__d): a module function's Hessian against
    differences of its gradient, a subroutine's Hessian-vector product by hand."""
    import adgen
    src = tmp_path / "chain.f90"
    src.write_text(FORTRAN_HEADS)
    f = adgen.build(str(src), head="chain(chain)/(x k)", cache_dir=adgen_cache)
    assert f.second_order, f.second_order_error
    n, k, h = 4, 2.0, 1e-6
    x = np.array([0.3, 1.2, 2.5, 3.1])
    H = f.hessian(n, x, k)
    for j in range(n):
        e = np.zeros(n)
        e[j] = h
        fd = (f.gradient(n, x + e, k)["x"] - f.gradient(n, x - e, k)["x"]) / (2 * h)
        assert np.allclose(H["x", "x"][:, j], fd, rtol=1e-7, atol=1e-7), j
    fd = (f.gradient(n, x, k + h)["x"] - f.gradient(n, x, k - h)["x"]) / (2 * h)
    assert np.allclose(H["x", "k"].ravel(), fd, rtol=1e-7, atol=1e-7)
    s = adgen.build(str(src), head="weighted(e)/(x a)", cache_dir=adgen_cache)
    x, a = np.array([0.3, -0.7, 1.1]), 0.8
    v, w = np.array([1.0, 0.5, -0.2]), 0.3
    hv = s.hvp(3, x, a, 0.0, tangents={"x": v, "a": w})
    dxx = a * (-np.sin(x) * x ** 2 + 4 * x * np.cos(x) + 2 * np.sin(x))
    dxa = np.cos(x) * x ** 2 + 2 * x * np.sin(x)
    assert np.allclose(hv["x"], dxx * v + dxa * w, rtol=1e-13, atol=1e-13)
    assert abs(hv["a"] - float(np.dot(dxa, v))) <= 1e-13


SPRINGS = Path(__file__).resolve().parent.parent / "examples" / "springs"


def test_springs_example_through_the_command_line(tmp_path):
    """examples/springs: the Hessian of a spring network by the two commands of its
    driver's header (no option beyond the head), compiled with -Werror, checked by the
    driver against differences of the gradient, for symmetry and in IPOPT's eval_h."""
    for name in ("springs.c", "hessian.c"):
        (tmp_path / name).write_text((SPRINGS / name).read_text())
    header = (SPRINGS / "hessian.c").read_text()
    commands = re.findall(r"^\s+adgen (.*)$", header, re.M)
    assert len(commands) == 2
    for cmd in commands:
        argv = [a.strip('"') for a in re.findall(r'"[^"]*"|\S+', cmd)]
        proc = subprocess.run([sys.executable, "-m", "adgen", *argv], cwd=tmp_path,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    objs = []
    for name in ("springs.c", "hessian.c", "springs_b.c", "springs_b_d.c"):
        flags = ["-Wno-unknown-pragmas"] if name == "springs.c" else []
        cmd = [CC, *WERROR_FLAGS, *flags, "-O2", "-c", name, "-o", name[:-2] + ".o"]
        proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        objs.append(name[:-2] + ".o")
    subprocess.run([CC, *objs, "-lm", "-o", "hessian"], cwd=tmp_path, check=True)
    proc = subprocess.run(["./hessian"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "eval_h ok" in proc.stdout


def test_springs_example_through_the_api(adgen_cache):
    """The same Hessian by built.hessian(), against differences of built.gradient()."""
    import adgen
    built = adgen.build(str(SPRINGS / "springs.c"), head="energy(energy)/(pos)",
                        cache_dir=adgen_cache)
    ei = np.array([0, 1, 2, 3, 0], dtype=np.int32)
    ej = np.array([1, 2, 3, 0, 2], dtype=np.int32)
    rest, k = np.array([1.0, 1.0, 1.0, 1.0, 1.4]), np.array([10.0, 12, 9, 11, 5])
    pos = np.array([0.0, 0.0, 1.1, 0.1, 1.0, 1.2, -0.1, 0.9])
    args = (4, pos, 5, ei, ej, rest, k, 9.81)
    H = built.hessian(*args)
    h = 1e-5

    def grad(p):
        return built.gradient(4, p, *args[2:])["pos"]
    fd = np.array([(grad(pos + h * e) - grad(pos - h * e)) / (2 * h) for e in np.eye(8)]).T
    assert np.max(np.abs(H - fd)) <= 1e-6 * np.max(np.abs(H))
    assert np.max(np.abs(H - H.T)) <= 1e-12 * np.max(np.abs(H))


FORTRAN_ENERGY = """
module energy_m
contains
  subroutine energy(n, x, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: e
    integer :: i
    real(8) :: d, s
    e = 0d0
    s = 1d0
    do i = 1, n - 1
      d = x(i + 1) - x(i)
      s = s * cos(d)
      e = e + 0.5d0 * (d - 1d0)**2 + s * d * d
      if (d > 0) e = e * (1d0 + 0.1d0 * d)
    end do
  end subroutine
end module
"""

FORTRAN_DRIVER = r"""
#include <math.h>
#include <stdio.h>
void energy_b_(int *n, double *x, double *xb, double *e, double *eb);
void energy_b__d(int *n, double *x, double *xd, double *xb, double *xbd, double *e, double *eb);
enum { N = 7 };
int main(void)
{
    int n = N;
    double x[N], u[N], v[N], g[N], hu[N], hv[N], gp[N], gm[N], xp[N], xm[N], e, eb;
    double h = 1e-5, fd_err = 0.0, scale = 0.0, uhv = 0.0, vhu = 0.0;
    for (int i = 0; i < N; i++) {
        x[i] = 0.3 * i + 0.1 * sin(i);
        u[i] = cos(1.7 * i + 0.2);
        v[i] = cos(2.0 * i);
        xp[i] = x[i] + h * v[i];
        xm[i] = x[i] - h * v[i];
    }
    eb = 1.0;
    energy_b__d(&n, x, v, g, hv, &e, &eb);
    eb = 1.0;
    energy_b__d(&n, x, u, g, hu, &e, &eb);
    eb = 1.0;
    energy_b_(&n, xp, gp, &e, &eb);
    eb = 1.0;
    energy_b_(&n, xm, gm, &e, &eb);
    for (int i = 0; i < N; i++) {
        fd_err = fmax(fd_err, fabs((gp[i] - gm[i]) / (2 * h) - hv[i]));
        scale = fmax(scale, fabs(hv[i]));
        uhv += u[i] * hv[i];
        vhu += v[i] * hu[i];
    }
    printf("%.17g %.17g %.17g %.17g\n", fd_err, scale, uhv, vhu);
    return 0;
}
"""


def test_hessian_vector_products_of_fortran(tmp_path):
    """A Fortran subroutine's adjoint (C) given back to adgen: its tangent, called from C
    beside the gfortran-compiled primal, against differences of the gradient and for
    symmetry."""
    import shutil
    import harness
    if shutil.which(harness.FC) is None:
        pytest.skip(f"needs {harness.FC}: {harness.ensure_gfortran()}")
    (tmp_path / "energy.f90").write_text(FORTRAN_ENERGY)
    _adgen("--reverse", str(tmp_path / "energy.f90"), "--head", "energy(e)/(x)", "-o",
           str(tmp_path / "energy_b.c"))
    _adgen("--forward", str(tmp_path / "energy_b.c"), "--head", "energy_b_(xb)/(x)", "-o",
           str(tmp_path / "energy_b_d.c"))
    (tmp_path / "driver.c").write_text(FORTRAN_DRIVER)
    objs = [_compile(tmp_path / f, tmp_path / (f[:-2] + ".o"))
            for f in ("energy_b.c", "energy_b_d.c", "driver.c")]
    subprocess.run([harness.FC, "-c", "energy.f90", "-o", "energy.o"], cwd=tmp_path,
                   check=True)
    subprocess.run([harness.FC, *SANITIZE, *map(str, objs), "energy.o", "-lm", "-o", "driver"],
                   cwd=tmp_path, check=True)
    proc = subprocess.run(["./driver"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    fd_err, scale, uhv, vhu = map(float, proc.stdout.split())
    assert scale > 0.0 and fd_err <= 1e-6 * scale, (fd_err, scale)
    assert abs(uhv - vhu) <= 1e-12 * max(abs(uhv), abs(vhu)), (uhv, vhu)
