"""Vector tangent mode (f_dv) against the scalar tangent (f_d): for the first head of every
C test program, one call of f_dv with nbdirs=3 random directions must give what three calls
of f_d give, to 1e-12 relative (through the Python API, adgen.build). Programs vector mode
refuses are skipped with adgen's reason, but for those of MUST_ACCEPT."""
import numpy as np
import pytest

import api_support as S

PROGRAMS = [p for p in S.C_PROGRAMS if S.first_head_ok(p)]
NBDIRS = 3
# programs vector mode must accept (it refused f2c's static locals)
MUST_ACCEPT = {"f2c_intrinsics", "large_local_arrays"}


def _compare(built, args, seed):
    rng = np.random.default_rng(seed)
    tangents = {}
    for x in built.independents:
        i = built.parameters.index(x)
        shape = np.shape(args[i]) if isinstance(args[i], np.ndarray) else ()
        tangents[x] = rng.uniform(-1, 1, (NBDIRS,) + shape)
    vec = built.jvp(*args, tangents=tangents, nbdirs=NBDIRS)
    worst = {}
    for k in range(NBDIRS):
        one = built.jvp(*args, tangents={x: t[k] for x, t in tangents.items()})
        for d in built.dependents:
            got, want = np.asarray(vec[d][k], dtype=float), np.asarray(one[d], dtype=float)
            scale = max(float(np.max(np.abs(want))), 1e-300)
            worst[d] = max(worst.get(d, 0.0), float(np.max(np.abs(got - want))) / scale)
    return worst


@pytest.mark.parametrize("source", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_vector_matches_tangent(source, adgen_cache, tmp_path):
    built, spec, head = S.build_head(source, cache_dir=adgen_cache)
    if not built.vector:
        assert source.stem not in MUST_ACCEPT, f"vector mode refuses {source.name}: " \
            f"{built.vector_error}"
        pytest.skip(f"vector mode refuses {source.name}: {built.vector_error}")
    args = S.head_arguments(source, head, spec, tmp_path, seed=spec.seed)
    try:
        worst = S.isolated(_compare, built, args, spec.seed)
    except AssertionError as exc:       # a crash of f_d or f_dv
        raise AssertionError(f"{head}: {exc} (f_dv or f_d; files in {built.path})") from None
    bad = {d: e for d, e in worst.items() if not e <= 1e-12}
    assert not bad, f"{head}: f_dv differs from f_d: worst relative errors {bad}"


def _vector_output(tmp_path, text, head):
    import subprocess
    import sys
    src = tmp_path / "m.c"
    src.write_text(text)
    proc = subprocess.run([sys.executable, "-m", "adgen", "--forward", "--vector", str(src),
                           "--head", head, "-o", "-"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _direction_loops(code):
    """The bodies of the loops over the directions in code."""
    import re
    return re.findall(r"for \(dir = 0; dir < nbdirs; dir = dir \+ 1\) \{\n(.*?)\n\s*\}",
                      code, re.S)


TRIG = """#include <math.h>
static double damped(double a, double b) { return exp(-a) * sin(b); }
void trig(int n, const double *x, double *f)
{
    int i, j;
    double s = 0.0;
    for (j = 0; j < n; j++)
        s = s + cos(x[j]) * x[j] * x[j];
    for (i = 0; i < n; i++)
        f[i] = n - s + (i + 1) * (1.0 - cos(x[i])) - sin(x[i]) + damped(x[i] * x[i], s);
}
"""


def test_partials_outside_the_direction_loops(tmp_path):
    """Each statement's partial derivatives are computed once, before its loop over the
    directions, which only multiplies and adds: no call in the loop (gcc does not move
    one out past the stores to the tangent arrays), and no product of two primal values."""
    import re
    code = _vector_output(tmp_path, TRIG, "trig(f)/(x)")
    loops = _direction_loops(code)
    assert len(loops) >= 5, code
    for body in loops:
        assert not re.search(r"\b(?!for\b)\w+\s*\(", body), f"a call in a direction loop:\n{body}"
        assert not re.search(r"\bx\[\w+\] \* x\[", body), f"a product of primal values:\n{body}"
    # the chain rule's `(i + 1) * (sin(x[i]) * xd[..])`: one product of the partials
    assert "partial = (double)(i + 1) * sin(x[i]);" in code, code
    # exp(-a), the other side's factor in b's partial, computed once before (held_values)
    assert "value2 = exp(-a);" in code and "partial2 = value2 * cos(b);" in code, code


def test_restrict_where_the_primal_promises_it(tmp_path):
    """The derivative arrays of `restrict` pointer parameters are `restrict`; not beside
    a result's tangents (the caller's `y[i] = g(y)` passes them inside an array it passes),
    nor a pure output's that the routine zeroes; by-value parameters' tangents in a helper
    are arrays of the caller's own, `restrict`; nothing in a head without `restrict`."""
    code = _vector_output(tmp_path, """#include <math.h>
static double total(int n, const double *restrict v)
{ double s = 0.0; int i; for (i = 0; i < n; i++) s += v[i]; return s; }
static void scale(int n, double a, double *restrict v)
{ int i; for (i = 0; i < n; i++) v[i] = a * sin(v[i]); }
void f(int n, const double *restrict x, double *restrict y, double *restrict z)
{
    int i;
    for (i = 0; i < n; i++) y[i] = x[i] * x[i];
    scale(n, x[0], y);
    z[0] = total(n, y);
    y[0] = y[0] + z[0];
}
void g(int n, const double *x, double *y)
{ int i; for (i = 0; i < n; i++) y[i] = cos(x[i]); }
""", "f(y z)/(x)")
    assert "static double total_dv(int n, const double *restrict v, const double *vd, " \
        "double *totald, int nbdirs)" in code, code
    assert "static void scale_dv(int n, double a, const double *restrict ad, " \
        "double *restrict v, double *restrict vd, int nbdirs)" in code, code
    # y and z are read after being written: f_dv zeroes their tangents on entry
    assert "memset(yd, 0," in code and "memset(zd, 0," in code, code
    assert "void f_dv(int n, const double *restrict x, const double *restrict xd, " \
        "double *restrict y, double *yd, double *restrict z, double *zd, int nbdirs)" in code
    code = _vector_output(tmp_path, "#include <math.h>\nvoid g(int n, const double *restrict "
                          "x, double *restrict y)\n{ int i; for (i = 0; i < n; i++) "
                          "y[i] = cos(x[i]); }\n", "g(y)/(x)")
    assert "void g_dv(int n, const double *restrict x, const double *restrict xd, " \
        "double *restrict y, double *restrict yd, int nbdirs)" in code, code
    plain = _vector_output(tmp_path, TRIG.replace("static double damped", "double damped"),
                           "trig(f)/(x)")
    assert "void trig_dv(int n, const double *x, const double *xd, double *f, double *fd, " \
        "int nbdirs)" in plain, plain
