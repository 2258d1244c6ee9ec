"""OpenMP in the derivative code (docs/openmp.md): the tangent keeps `#pragma omp parallel
for` loops parallel, with the tangents shared or private as their primals and each
iteration's own variables (adgen's temporaries among them) private. The derivatives
themselves are checked serially by testsuite/c/openmp_parallel_loops.c; here the tangent
(C, C in vector mode, and Fortran's `!$omp parallel do`) runs on 1, 2 and 4 threads and
must give the serial results to rounding. (ThreadSanitizer
is not used: Debian's libgomp is not built with it, so the barriers between parallel
regions are invisible to it and any program with two regions reports races that are not
there.)"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_fortran_directives import write

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "testsuite" / "c" / "openmp_parallel_loops.c"
HEAD = "openmp_parallel_loops(v energy)/(u w)"
CC = os.environ.get("CC", "gcc")
WERROR = ["-std=c99", "-Wall", "-Wextra", "-Werror"]

# stacks left full of other numbers where the threads' variables will lie, before each
# derivative call: a private copy not given its value would show
DIRTY_STACKS = r"""
/* stacks left full of other numbers, where the threads' variables will lie: a private
   copy that is not given its value would show */
static volatile double sink;
static void dirty_stacks(void)
{
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
        volatile double junk[8192];
        int k;
        for (k = 0; k < 8192; k++)
            junk[k] = 1e30 + k;
        sink = junk[8191];
    }
}

"""

# the tangent (f_d) or the vector tangent in three directions (f_dv) at n = 40 points
DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#define N 40
#define DIRS 3
#ifdef VECTOR
void openmp_parallel_loops_dv(int n, const double *u, const double *ud, double w,
                              const double *wd, double *v, double *vd, double *energy,
                              double *energyd, int nbdirs);
#else
void openmp_parallel_loops_d(int n, const double *u, const double *ud, double w, double wd,
                             double *v, double *vd, double *energy, double *energyd);
#endif
int main(void)
{
    static double u[N * N], ud[DIRS * N * N], v[N * N], vd[DIRS * N * N];
    double e, ed[DIRS], wd[DIRS] = {0.3, -0.2, 1.0};
    int i;
    for (i = 0; i < N * N; i++)
        u[i] = sin(0.37 * i + 0.1);
    for (i = 0; i < DIRS * N * N; i++)
        ud[i] = cos(0.11 * i);
#ifdef VECTOR
    dirty_stacks();
    openmp_parallel_loops_dv(N, u, ud, 0.8, wd, v, vd, &e, ed, DIRS);
    for (i = 0; i < DIRS * N * N; i++)
        printf("%.17g\n", vd[i]);
    printf("%.17g %.17g %.17g %.17g\n", e, ed[0], ed[1], ed[2]);
#else
    dirty_stacks();
    openmp_parallel_loops_d(N, u, ud, 0.8, wd[0], v, vd, &e, ed);
    for (i = 0; i < N * N; i++)
        printf("%.17g %.17g\n", v[i], vd[i]);
    printf("%.17g %.17g\n", e, ed[0]);
#endif
    return 0;
}
"""


FORTRAN = ROOT / "testsuite" / "fortran" / "openmp_parallel_do.f90"
FORTRAN_DRIVER = r"""
#include <stdio.h>
#include <math.h>
#define N 400
/* the tangent, or with ADJOINT the adjoint */
void smooth_d_(int *n, double *u, double *ud, double *w, double *wd, double *v, double *vd,
               double *energy, double *energyd);
void smooth_b_(int *n, double *u, double *ub, double *w, double *wb, double *v, double *vb,
               double *energy, double *energyb);
int main(void)
{
    static double u[N], ud[N], v[N], vd[N];
    double w = 0.8, wd = 0.3, e, ed = 1.0;
    int n = N, i;
    for (i = 0; i < N; i++) {
        u[i] = sin(0.37 * i + 0.1);
        ud[i] = cos(0.11 * i);
    }
#ifdef ADJOINT
    wd = 0.0;
    for (i = 0; i < N; i++) {
        vd[i] = ud[i];
        ud[i] = 0.0;
    }
    dirty_stacks();
    smooth_b_(&n, u, ud, &w, &wd, v, vd, &e, &ed);
    for (i = 0; i < N; i++)
        printf("%.17g\n", ud[i]);
    printf("%.17g\n", wd);
#else
    dirty_stacks();
    smooth_d_(&n, u, ud, &w, &wd, v, vd, &e, &ed);
    for (i = 0; i < N; i++)
        printf("%.17g %.17g\n", v[i], vd[i]);
    printf("%.17g %.17g\n", e, ed);
#endif
    return 0;
}
"""


def adgen(*args):
    proc = subprocess.run([sys.executable, "-m", "adgen"] + [str(a) for a in args], cwd=ROOT,
                          capture_output=True, text=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def openmp_works(tmp_path):
    probe = write(tmp_path, "probe.c", "#include <omp.h>\nint main(void) { return "
                  "omp_get_max_threads() > 0 ? 0 : 1; }\n")
    proc = subprocess.run([CC, "-fopenmp", str(probe), "-o", str(tmp_path / "probe")],
                          capture_output=True, text=True)
    return proc.returncode == 0


def test_tangent_pragmas(tmp_path):
    out = tmp_path / "t_d.c"
    proc = adgen("--forward", PROGRAM, "--head", HEAD, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr
    pragmas = [line.strip() for line in out.read_text().splitlines()
               if line.strip().startswith("#pragma omp")]
    assert pragmas == [
        "#pragma omp parallel for schedule(static) private(k, row, rowd, soften_result, "
        "soften_resultd, stencil, stencild, t, td, value)",
        "#pragma omp parallel for collapse(2) private(r, rd) firstprivate(scale, scaled) "
        "schedule(static, 2) private(j)",
        "#pragma omp parallel for reduction(+: s, sd)"], pragmas
    # the adjoint runs the sum in parallel, the other two serially, and says why
    proc = adgen("--reverse", PROGRAM, "--head", HEAD, "-o", tmp_path / "t_b.c")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"{PROGRAM}:25:9: warning: '#pragma omp parallel for schedule(static)' is not "
        "supported here yet: the adjoint runs this loop serially: it calls 'soften' (only "
        "calls of math functions are supported yet)",
        f"{PROGRAM}:38:9: warning: '#pragma omp parallel for collapse(2) private(r) "
        "firstprivate(scale) schedule(static, 2)' is not supported here yet: the adjoint "
        "runs this loop serially: the clause 'collapse' is not supported in the adjoint "
        "yet"], proc.stderr
    assert [line.strip() for line in (tmp_path / "t_b.c").read_text().splitlines()
            if line.strip().startswith("#pragma omp parallel")] == [
        "#pragma omp parallel for reduction(+: s) firstprivate(s_kept, sb_unit, tempb3, vb_part, "
        "wb_part)"]


@pytest.mark.parametrize("case", ["c", "c vector", "fortran"])
def test_tangent_on_threads_equals_serial(tmp_path, case):
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    vector = case == "c vector"
    out = tmp_path / "t_d.c"
    if case == "fortran":
        proc = adgen("--forward", FORTRAN, "--head", "smooth(v energy)/(u w)", "-o", out)
    else:
        proc = adgen("--forward", PROGRAM, "--head", HEAD, "-o", out,
                     *(["--vector"] if vector else []))
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr
    assert out.read_text().count("#pragma omp parallel for") == (2 if case == "fortran" else 3)
    run_on_threads(tmp_path, out, FORTRAN_DRIVER if case == "fortran" else DRIVER,
                   ["-DVECTOR"] if vector else [])


def test_loops_kept_serial_say_why(tmp_path):
    src = write(tmp_path, "m.c", """\
#include <math.h>
void m(int n, const double *x, double *y, double *top)
{
    int i;
    double t = -1e300;
#pragma omp parallel for reduction(max : t)
    for (i = 0; i < n; i++)
        t = fmax(t, x[i] * x[i]);
#pragma omp parallel for
    for (i = 0; i < n; i++) {
#pragma omp critical
        y[0] = fmax(y[0], sin(x[i]));
    }
#pragma omp parallel for
    for (i = 0; n-- > 0; i++)
        y[i + 1] = x[i] * t;
    top[0] = t;
}
""")
    out = tmp_path / "m_d.c"
    proc = adgen("--forward", src, "--head", "m(y top)/(x)", "-o", out, "--size", "y=n+1")
    assert proc.returncode == 0, proc.stderr
    assert f"{src}:6:9: warning: '#pragma omp parallel for reduction(max : t)': the tangent " \
        "runs this loop serially: reduction(max : t) of a variable with a tangent: only sums " \
        "(+) are supported yet" in proc.stderr, proc.stderr
    assert f"{src}:9:9: warning: '#pragma omp parallel for': the tangent runs this loop " \
        "serially: '#pragma omp critical' inside it is not supported yet" in proc.stderr, \
        proc.stderr
    assert f"{src}:14:9: warning: '#pragma omp parallel for': the tangent runs this loop " \
        "serially: adgen keeps it only before a counted for loop" in proc.stderr, proc.stderr
    assert "#pragma omp parallel" not in out.read_text()


def test_fortran_clauses_c_cannot_say(tmp_path):
    src = write(tmp_path, "f.f90", """\
subroutine f(n, x, t, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8) :: t
  real(8), intent(out) :: y(n)
  integer :: i
  !$omp parallel do private(t)
  do i = 1, n
    t = x(i) * 2
    y(i) = t * t
  end do
  !$omp parallel do
  y(1) = y(1) * x(1)
end subroutine f
""")
    out = tmp_path / "f_d.c"
    proc = adgen("--forward", src, "--head", "f(y)/(x)", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert f"{src}:7:3: warning: '!$omp parallel do private(t)' is not supported: the " \
        "derivative code runs this loop serially (private(t): a dummy argument, which the C " \
        "code reaches through a pointer)" in proc.stderr, proc.stderr
    assert f"{src}:12:3: warning: '!$omp parallel do' does not stand before a DO loop: the " \
        "derivative code runs this part serially" in proc.stderr, proc.stderr
    assert "#pragma omp" not in out.read_text()


def test_fortran_parallel_do_without_clauses(tmp_path):
    """`!$omp parallel do` with no clause at all is the plain parallel loop (it was taken
    for a clause adgen did not know, '', and the loop ran serially with a warning)."""
    src = write(tmp_path, "g.f90", """\
subroutine g(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  integer :: i
  !$omp parallel do
  do i = 1, n
    y(i) = sin(x(i)) * x(i)
  end do
end subroutine g
""")
    for mode, suffix in (("--forward", "d"), ("--reverse", "b")):
        out = tmp_path / f"g_{suffix}.c"
        proc = adgen(mode, src, "--head", "g(y)/(x)", "-o", out)
        assert proc.returncode == 0, proc.stderr
        assert "warning" not in proc.stderr, proc.stderr
        assert "#pragma omp parallel for" in out.read_text(), mode


def test_tangent_compiles_without_openmp(tmp_path):
    """Built without -fopenmp, the tangent's pragmas are ignored without a warning, also
    where no other pragma of adgen's turns that warning off (a head of scalars)."""
    src = write(tmp_path, "s.c", "double f(int n, double x)\n{\n    double s = 0.0;\n"
                "    int i;\n#pragma omp parallel for reduction(+ : s)\n"
                "    for (i = 0; i < n; i++)\n        s += x * x * i;\n    return s;\n}\n")
    out = tmp_path / "s_d.c"
    proc = adgen("--forward", src, "--head", "f(f)/(x)", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert "#pragma omp parallel for reduction(+: s, sd)" in out.read_text()
    built = subprocess.run([CC] + WERROR + ["-c", str(out), "-o", str(tmp_path / "s_d.o")],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr


SUM = ROOT / "testsuite" / "c" / "openmp_parallel_sum.c"
SUM_DRIVER = r"""
#include <stdio.h>
#include <math.h>
#define N 300
#define D 3
void openmp_parallel_sum_b(int n, int d, const double *x, double *xb, const double *mu,
                           double *mub, double s, double *sb, double seed);
int main(void)
{
    static double x[N * D], xb[N * D];
    double mu[D] = {0.1, -0.2, 0.3}, mub[D], sb = 0.0;
    int i;
    for (i = 0; i < N * D; i++)
        x[i] = sin(0.37 * i + 0.1);
    dirty_stacks();
    openmp_parallel_sum_b(N, D, x, xb, mu, mub, 0.9, &sb, 1.0);
    for (i = 0; i < N * D; i++)
        printf("%.17g\n", xb[i]);
    printf("%.17g %.17g %.17g %.17g\n", mub[0], mub[1], mub[2], sb);
    return 0;
}
"""




def run_on_threads(tmp_path, out, driver_text, defines=(), same_runs=False,
                   serial_source=None):
    """The numbers driver_text prints, linked with out, built without -fopenmp and with it
    on 1, 2 and 4 threads (two runs each): the threads' runs must be the serial one to
    1e-12 (a sum's reduction adds in another order: rounding only), on one thread exactly.
    With same_runs, also the same at every run: where no reduction of the program (whose
    order OpenMP leaves open) feeds the numbers printed. With serial_source, the serial
    run is that file's (the derivative of the program without its pragmas), and one
    thread need only give its numbers to 1e-12."""
    driver = write(tmp_path, "driver.c", DIRTY_STACKS + driver_text)
    builds = {}
    for name, flags in (("serial", []), ("parallel", ["-fopenmp"])):
        exe = tmp_path / name
        source = serial_source if name == "serial" and serial_source is not None else out
        cmd = [CC] + WERROR + ["-O2"] + flags + list(defines) + \
            [str(source), str(driver), "-lm", "-o", str(exe)]
        built = subprocess.run(cmd, capture_output=True, text=True)
        assert built.returncode == 0, built.stderr
        builds[name] = exe
    serial = subprocess.run([str(builds["serial"])], capture_output=True, text=True,
                            check=True).stdout
    want = [float(x) for x in serial.split()]
    for threads in (1, 2, 4):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_DYNAMIC="false")
        runs = [subprocess.run([str(builds["parallel"])], capture_output=True, text=True,
                               env=env, check=True).stdout for _ in range(2)]
        # with a static schedule, the same sums at every run
        assert runs[0] == runs[1] or not same_runs, threads
        got = [float(x) for x in runs[0].split()]
        assert len(got) == len(want)
        worst = max(abs(a - b) / max(abs(a), 1e-300) for a, b in zip(want, got))
        assert worst <= 1e-12, (threads, worst)
        if threads == 1 and serial_source is None:
            assert runs[0] == serial


def test_adjoint_of_a_fortran_parallel_sum_on_threads(tmp_path):
    """Fortran's `!$omp parallel do reduction(+:s)`: its adjoint runs in parallel too, and
    so does the sweep before it, which stores t for its backward sweep in slots of each
    iteration's."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    out = tmp_path / "f_b.c"
    proc = adgen("--reverse", FORTRAN, "--head", "smooth(v energy)/(u w)", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr
    code = out.read_text()
    assert "#pragma omp parallel for reduction(+: s) firstprivate(" in code
    assert code.count("#pragma omp parallel for") == 3, code
    run_on_threads(tmp_path, out, FORTRAN_DRIVER, ["-DADJOINT"])


def test_adjoint_of_a_parallel_sum_on_threads(tmp_path):
    """A parallel loop adding into a sum: its adjoint runs the iterations in parallel,
    each thread on a stack of its own (a helper's recording stores values) and gathering
    adjoints in buffers of its own, and gives the serial gradient on 1, 2 and 4 threads,
    the same at every run (the sum's value, which OpenMP adds up in an order of its own,
    does not reach the gradient here)."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    out = tmp_path / "s_b.c"
    proc = adgen("--reverse", SUM, "--head", "openmp_parallel_sum(openmp_parallel_sum)/"
                 "(mu s x)", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr
    code = out.read_text()
    assert "#pragma omp threadprivate(adgen_stack, adgen_stack_top, adgen_stack_cap)" in code
    assert "#pragma omp parallel for reduction(+: total) schedule(static) firstprivate(" in code
    run_on_threads(tmp_path, out, SUM_DRIVER, same_runs=True)


# many particles in few cells (each cell shared by a hundred): a deposit that is not
# exclusive loses updates on more than one thread
PARTICLES = r"""
#include <stdio.h>
#include <math.h>
#define NP 20000
#define NG 200
static int cell[NP];
static double frac[NP], charge[NP], rho[NG], moment = 0.25;
static void particles(int first_cell)    /* (Fortran's cells count from 1) */
{
    int p;
    for (p = 0; p < NP; p++) {
        cell[p] = first_cell + (p * 7919) % (NG - 1);
        frac[p] = 0.5 + 0.4 * sin(0.37 * p);
        charge[p] = 1.0 + 0.5 * cos(0.11 * p);   /* (positive: sums without cancelling) */
    }
    for (p = 0; p < NG; p++)
        rho[p] = 0.01 * p;
}
"""

# loops whose iterations write their own elements: the program, its head, and a driver
# that calls its adjoint and prints every adjoint (and adgen's options, and whether every
# run gives the same numbers: not where atomic updates add in the order threads come)
OWN_ELEMENTS = {
    "openmp_jacobi": ("openmp_jacobi(unew res)/(u f c)", r"""
#include <stdio.h>
#include <math.h>
#define N 2000
void openmp_jacobi_b(int n, const double *u, double *ub, const double *f, double *fb,
                     double c, double *cb, double *unew, double *unewb, double *res,
                     double *resb);
int main(void)
{
    static double u[N], ub[N], f[N], fb[N], unew[N], unewb[N];
    double cb = 0.0, res, resb = 0.7;
    int i;
    for (i = 0; i < N; i++) {
        u[i] = sin(0.37 * i + 0.1);
        f[i] = cos(0.21 * i);
        unewb[i] = sin(0.13 * i + 0.7);
    }
    dirty_stacks();
    openmp_jacobi_b(N, u, ub, f, fb, 0.8, &cb, unew, unewb, &res, &resb);
    for (i = 0; i < N; i++)
        printf("%.17g %.17g\n", ub[i], fb[i]);
    printf("%.17g\n", cb);
    return 0;
}
"""),
    "openmp_matvec": ("openmp_matvec(y)/(a x)", r"""
#include <stdio.h>
#include <math.h>
#define N 300
#define M 200
void openmp_matvec_b(int n, int m, const double *a, double *ab, const double *x,
                     double *xb, double *y, double *yb);
int main(void)
{
    static double a[N * M], ab[N * M], x[M], xb[M], y[N], yb[N];
    int i;
    for (i = 0; i < N * M; i++)
        a[i] = sin(0.37 * i + 0.1);
    for (i = 0; i < M; i++)
        x[i] = cos(0.21 * i);
    for (i = 0; i < N; i++)
        yb[i] = sin(0.13 * i + 0.7);
    dirty_stacks();
    openmp_matvec_b(N, M, a, ab, x, xb, y, yb);
    for (i = 0; i < N * M; i++)
        printf("%.17g\n", ab[i]);
    for (i = 0; i < M; i++)
        printf("%.17g\n", xb[i]);
    return 0;
}
"""),
    "openmp_heat_steps": ("openmp_heat_steps(u)/(u k)", r"""
#include <stdio.h>
#include <math.h>
#define N 1000
#define STEPS 20
void openmp_heat_steps_b(int n, int steps, double *u, double *ub, double k, double *kb,
                         double *work, double *workb);
int main(void)
{
    static double u[N], ub[N], work[N], workb[N];
    double kb = 0.0;
    int i;
    for (i = 0; i < N; i++) {
        u[i] = sin(0.37 * i + 0.1);
        ub[i] = cos(0.13 * i);
    }
    dirty_stacks();
    openmp_heat_steps_b(N, STEPS, u, ub, 0.2, &kb, work, workb);
    for (i = 0; i < N; i++)
        printf("%.17g\n", ub[i]);
    printf("%.17g\n", kb);
    return 0;
}
"""),
    "openmp_stencil_2d": ("openmp_stencil_2d(v)/(u w)", r"""
#include <stdio.h>
#include <math.h>
#define N 120
#define M 90
void openmp_stencil_2d_b(int n, int m, const double *u, double *ub, double w, double *wb,
                         double *v, double *vb);
int main(void)
{
    static double u[N * M], ub[N * M], v[N * M], vb[N * M];
    double wb = 0.0;
    int i;
    for (i = 0; i < N * M; i++) {
        u[i] = sin(0.37 * i + 0.1);
        vb[i] = cos(0.13 * i);
    }
    dirty_stacks();
    openmp_stencil_2d_b(N, M, u, ub, 0.7, &wb, v, vb);
    for (i = 0; i < N * M; i++)
        printf("%.17g\n", ub[i]);
    printf("%.17g\n", wb);
    return 0;
}
"""),
    "openmp_jacobi.f90": ("openmp_jacobi(unew)/(u f c)", r"""
#include <stdio.h>
#include <math.h>
#define N 2000
void openmp_jacobi_b_(int *n, double *u, double *ub, double *f, double *fb, double *c,
                      double *cb, double *unew, double *unewb);
int main(void)
{
    static double u[N], ub[N], f[N], fb[N], unew[N], unewb[N];
    double c = 0.8, cb = 0.0;
    int n = N, i;
    for (i = 0; i < N; i++) {
        u[i] = sin(0.37 * i + 0.1);
        f[i] = cos(0.21 * i);
        unewb[i] = sin(0.13 * i + 0.7);
    }
    dirty_stacks();
    openmp_jacobi_b_(&n, u, ub, f, fb, &c, &cb, unew, unewb);
    for (i = 0; i < N; i++)
        printf("%.17g %.17g\n", ub[i], fb[i]);
    printf("%.17g\n", cb);
    return 0;
}
"""),
    # (values stored in branches, the branch taken too)
    "openmp_stored_branches": ("openmp_stored_branches(v)/(x)", r"""
#include <stdio.h>
#include <math.h>
#define N 3000
void openmp_stored_branches_b(int n, const double *x, double *xb, double *v, double *vb);
int main(void)
{
    static double x[N], xb[N], v[N], vb[N];
    int i;
    for (i = 0; i < N; i++) {
        x[i] = sin(0.37 * i + 0.1);
        v[i] = cos(0.21 * i);
        vb[i] = cos(0.13 * i);
    }
    dirty_stacks();
    openmp_stored_branches_b(N, x, xb, v, vb);
    for (i = 0; i < N; i++)
        printf("%.17g %.17g\n", xb[i], v[i]);
    return 0;
}
""", ["--size", "v=n"]),
    # (an `!$omp parallel` region of one `!$omp do` loop)
    "openmp_region_do.f90": ("relax(v)/(u w)", r"""
#include <stdio.h>
#include <math.h>
#define N 3000
void relax_b_(int *n, double *u, double *ub, double *w, double *wb, double *v, double *vb);
int main(void)
{
    static double u[N], ub[N], v[N], vb[N];
    double w = 0.7, wb = 0.0;
    int n = N, i;
    for (i = 0; i < N; i++) {
        u[i] = sin(0.37 * i + 0.1);
        vb[i] = cos(0.13 * i);
    }
    dirty_stacks();
    relax_b_(&n, u, ub, &w, &wb, v, vb);
    for (i = 0; i < N; i++)
        printf("%.17g\n", ub[i]);
    printf("%.17g\n", wb);
    return 0;
}
"""),
    # (a private scalar set again after the loop before it is read)
    "openmp_private_set_again": ("openmp_private_set_again(y)/(x)", r"""
#include <stdio.h>
#include <math.h>
#define N 3000
void openmp_private_set_again_b(int n, const double *x, double *xb, double *y, double *yb);
int main(void)
{
    static double x[N], xb[N], y[N], yb[N];
    int i;
    for (i = 0; i < N; i++) {
        x[i] = sin(0.37 * i + 0.1);
        yb[i] = cos(0.13 * i);
    }
    dirty_stacks();
    openmp_private_set_again_b(N, x, xb, y, yb);
    for (i = 0; i < N; i++)
        printf("%.17g %.17g\n", xb[i], y[i]);
    return 0;
}
""", ["--size", "x=n", "--size", "y=n"]),
    # (values stored for the backward sweep, in slots of each iteration's)
    "openmp_stored_values": ("openmp_stored_values(u energy)/(u c)", r"""
#include <stdio.h>
#include <math.h>
#define N 3000
#define STEPS 4
void openmp_stored_values_b(int n, int steps, double *u, double *ub, double c, double *cb,
                            double *energy, double *energyb);
int main(void)
{
    static double u[N], ub[N];
    double cb = 0.0, energy, energyb = 0.7;
    int i;
    for (i = 0; i < N; i++) {
        u[i] = sin(0.37 * i + 0.1);
        ub[i] = cos(0.13 * i);
    }
    dirty_stacks();
    openmp_stored_values_b(N, STEPS, u, ub, 0.8, &cb, &energy, &energyb);
    for (i = 0; i < N; i++)
        printf("%.17g %.17g\n", ub[i], u[i]);
    printf("%.17g\n", cb);
    return 0;
}
"""),
    # (deposits into shared cells, each an `omp atomic` update: the backward loop only
    # reads their adjoints)
    "openmp_particle_deposit": ("openmp_particle_deposit(rho moment)/(frac charge)",
                                PARTICLES + r"""
void openmp_particle_deposit_b(int np, int ng, const int *cell, const double *frac,
                               double *fracb, const double *charge, double *chargeb,
                               double *rho, double *rhob, double *moment, double *momentb);
int main(void)
{
    static double rhob[NG], fracb[NP], chargeb[NP];
    double momentb = 0.3;
    int p;
    particles(0);
    for (p = 0; p < NG; p++)
        rhob[p] = cos(0.7 * p);
    dirty_stacks();
    openmp_particle_deposit_b(NP, NG, cell, frac, fracb, charge, chargeb, rho, rhob,
                              &moment, &momentb);
    for (p = 0; p < NP; p++)
        printf("%.17g %.17g\n", fracb[p], chargeb[p]);
    for (p = 0; p < NG; p++)        /* (the forward sweep's deposits) */
        printf("%.17g\n", rho[p]);
    printf("%.17g\n", moment);
    return 0;
}
""", ["--size", "rho=ng"], False),
    "openmp_particle_deposit.f90": ("deposit(rho moment)/(frac charge)", PARTICLES + r"""
void deposit_b_(int *np, int *ng, int *cell, double *frac, double *fracb, double *charge,
                double *chargeb, double *rho, double *rhob, double *moment, double *momentb);
int main(void)
{
    static double rhob[NG], fracb[NP], chargeb[NP];
    double momentb = 0.3;
    int np = NP, ng = NG, p;
    particles(1);
    for (p = 0; p < NG; p++)
        rhob[p] = cos(0.7 * p);
    dirty_stacks();
    deposit_b_(&np, &ng, cell, frac, fracb, charge, chargeb, rho, rhob, &moment, &momentb);
    for (p = 0; p < NP; p++)
        printf("%.17g %.17g\n", fracb[p], chargeb[p]);
    for (p = 0; p < NG; p++)
        printf("%.17g\n", rho[p]);
    printf("%.17g\n", moment);
    return 0;
}
""", [], False),
}


@pytest.mark.parametrize("stack", ["heap", "static"])
@pytest.mark.parametrize("name", sorted(OWN_ELEMENTS))
def test_adjoint_of_loops_writing_their_own_elements_on_threads(tmp_path, name, stack):
    """A parallel loop whose iterations write their own elements (a Jacobi sweep with a
    coefficient, a matrix-vector product, the space loop of a time stepper, the rows of a
    2-D stencil): its backward
    loop runs in parallel, the adjoints every iteration adds into in parts of each
    thread's; so does Fortran's `!$omp parallel do`. On 1, 2 and 4 threads the gradient is the serial adjoint's (that of the
    program without its pragmas) to 1e-12, and the same at every run."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    head, driver_text, options, same_runs = (OWN_ELEMENTS[name] + ([], True))[:4]
    program = ROOT / "testsuite" / ("fortran" if name.endswith(".f90") else "c") / \
        (name if name.endswith(".f90") else f"{name}.c")
    plain = write(tmp_path, program.name, "".join(
        line for line in program.read_text().splitlines(True)
        if not line.strip().lower().startswith(("#pragma omp", "!$omp"))))
    name = program.stem
    # (the static stack's room for each thread's adjoints is given: adgen cannot tell the
    # number of threads)
    stack_flags = ["--stack=static", "--stack-size", str(64 << 20)] if stack == "static" \
        else []
    out, serial_out = tmp_path / f"{name}_b.c", tmp_path / "plain" / f"{name}_b.c"
    serial_out.parent.mkdir()
    proc = adgen("--reverse", program, "--head", head, "-o", out, *stack_flags, *options)
    assert proc.returncode == 0, proc.stderr
    code = out.read_text()
    # the loop that stores nothing runs in parallel in both sweeps: the primal loop with
    # the program's pragma, then the `for` over its iterations backwards with a static
    # schedule
    lines = code.splitlines()
    after = [(line.strip(), lines[k + 1].strip()) for k, line in enumerate(lines)
             if line.strip().startswith("#pragma omp parallel for")]
    loops = sum(line.strip().lower().startswith(("#pragma omp parallel for",
                                                 "!$omp parallel do", "!$omp do"))
                for line in program.read_text().splitlines())
    backward = [loop for pragma, loop in after if loop.startswith("for (iter")]
    assert len(backward) == loops and all(">= 0" in loop for loop in backward), after
    assert all(pragma.startswith("#pragma omp parallel for schedule(static) firstprivate(")
               for pragma, loop in after if loop.startswith("for (iter")), after
    assert len(after) == 2 * loops, after
    assert "warning" not in proc.stderr, proc.stderr
    if name == "openmp_heat_steps":
        # (the copy back overwrites u, which the stencil's backward sweep reads: kept in
        # slots of each iteration's)
        assert "u_kept[i] = u[i];" in code and "u[i] = u_kept[iter2];" in code, code
    proc = adgen("--reverse", plain, "--head", head, "-o", serial_out, *stack_flags,
                 *options)
    assert proc.returncode == 0, proc.stderr
    assert "#pragma omp" not in serial_out.read_text()
    run_on_threads(tmp_path, out, driver_text, same_runs=same_runs, serial_source=serial_out)


DEPOSIT = ROOT / "testsuite" / "c" / "openmp_particle_deposit.c"
FORTRAN_DEPOSIT = ROOT / "testsuite" / "fortran" / "openmp_particle_deposit.f90"
DEPOSIT_DRIVER = PARTICLES + r"""
#define DIRS 2
void openmp_particle_deposit_dv(int np, int ng, const int *cell, const double *frac,
                                const double *fracd, const double *charge,
                                const double *charged, double *rho, double *rhod,
                                double *moment, double *momentd, int nbdirs);
void openmp_particle_deposit_d(int np, int ng, const int *cell, const double *frac,
                               const double *fracd, const double *charge,
                               const double *charged, double *rho, double *rhod,
                               double *moment, double *momentd);
int main(void)
{
    static double fracd[NP * DIRS], charged[NP * DIRS], rhod[NG * DIRS];
    double momentd[DIRS] = {0.0, 0.0};
    int p;
    particles(0);
    for (p = 0; p < NP * DIRS; p++) {
        fracd[p] = 0.5 + 0.5 * sin(0.3 * p);
        charged[p] = 0.75 + 0.25 * cos(0.9 * p);
    }
    dirty_stacks();
#ifdef VECTOR
    openmp_particle_deposit_dv(NP, NG, cell, frac, fracd, charge, charged, rho, rhod,
                               &moment, momentd, DIRS);
#else
    openmp_particle_deposit_d(NP, NG, cell, frac, fracd, charge, charged, rho, rhod,
                              &moment, momentd);
#endif
    for (p = 0; p < NG; p++)
        printf("%.17g %.17g %.17g\n", rho[p], rhod[p], rhod[NG + p]);
    printf("%.17g %.17g\n", moment, momentd[0]);
    return 0;
}
"""


FORTRAN_DEPOSIT_DRIVER = PARTICLES + r"""
void deposit_d_(int *np, int *ng, int *cell, double *frac, double *fracd, double *charge,
                double *charged, double *rho, double *rhod, double *moment, double *momentd);
int main(void)
{
    static double fracd[NP], charged[NP], rhod[NG];
    double momentd = 0.0;
    int np = NP, ng = NG, p;
    particles(1);
    for (p = 0; p < NP; p++) {
        fracd[p] = 0.5 + 0.5 * sin(0.3 * p);
        charged[p] = 0.75 + 0.25 * cos(0.9 * p);
    }
    dirty_stacks();
    deposit_d_(&np, &ng, cell, frac, fracd, charge, charged, rho, rhod, &moment, &momentd);
    for (p = 0; p < NG; p++)
        printf("%.17g %.17g\n", rho[p], rhod[p]);
    printf("%.17g %.17g\n", moment, momentd);
    return 0;
}
"""


@pytest.mark.parametrize("case", ["c", "c vector", "fortran"])
def test_tangent_of_exclusive_updates_on_threads(tmp_path, case):
    """`omp atomic` and `omp critical` updates (particles depositing into shared cells),
    in C and Fortran: the tangent keeps the loop parallel and each update exclusive, its
    tangent's too (in vector mode, each direction's), and gives the serial results on 1,
    2 and 4 threads (to rounding: the updates add in the order threads come)."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    vector = case == "c vector"
    out = tmp_path / "deposit_d.c"
    if case == "fortran":
        proc = adgen("--forward", FORTRAN_DEPOSIT, "--head",
                     "deposit(rho moment)/(frac charge)", "-o", out)
        assert proc.returncode == 0, proc.stderr
        assert "warning" not in proc.stderr, proc.stderr
        code = out.read_text()
        assert code.count("#pragma omp atomic\n") == 2, code
        assert code.count("#pragma omp atomic update\n") == 2, code
        assert code.count("#pragma omp critical (moments)\n") == 4, code
        run_on_threads(tmp_path, out, FORTRAN_DEPOSIT_DRIVER)
        return
    proc = adgen("--vector" if vector else "--forward", DEPOSIT, "--head",
                 "openmp_particle_deposit(rho moment)/(frac charge)", "--size", "rho=ng",
                 "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr
    lines = [line.strip() for line in out.read_text().splitlines()]
    updated = [lines[k + 1].split(" = ")[0] for k, line in enumerate(lines)
               if line.startswith(("#pragma omp atomic", "#pragma omp critical"))]
    tangents = ["rhod[cell[p] * nbdirs + dir]", "rhod[(cell[p] + 1) * nbdirs + dir]"] \
        if vector else ["rhod[cell[p]]", "rhod[cell[p] + 1]"]
    assert sorted(updated) == sorted(tangents + [
        "rho[cell[p]]", "rho[cell[p] + 1]"] + 2 * ["momentd[dir]" if vector else "*momentd", "*moment"]), \
        updated
    assert sum(line.startswith("#pragma omp parallel for") for line in lines) == 1
    run_on_threads(tmp_path, out, DEPOSIT_DRIVER, ["-DVECTOR"] if vector else [])


def test_openmp_where_calls_reach_it(tmp_path):
    """A parallel loop calling a function with an exclusive update keeps it in the
    callee's tangent and stays parallel; one calling a function whose OpenMP the
    derivative code leaves out (a critical section that is not a sum) runs serially, as
    threads would race where that section was."""
    src = write(tmp_path, "calls.c", """\
static void add_to(double *grid, int c, double q)
{
#pragma omp atomic
    grid[c] += q;
}
static void keep_max(double *best, double v)
{
#pragma omp critical
    {
        if (v > *best)
            *best = v;
    }
}
void calls(int n, const int *cell, const double *x, double *grid, double *best)
{
    int p;
#pragma omp parallel for
    for (p = 0; p < n; p++)
        add_to(grid, cell[p], x[p] * x[p]);
#pragma omp parallel for
    for (p = 0; p < n; p++)
        keep_max(best, x[p]);
}
""")
    out = tmp_path / "calls_d.c"
    proc = adgen("--forward", src, "--head", "calls(grid best)/(x)", "--size", "grid=n",
                 "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"{src}:8:9: warning: '#pragma omp critical' is not supported yet: the derivative "
        "code runs this part serially",
        f"{src}:20:9: warning: '#pragma omp parallel for': the tangent runs this loop "
        "serially: it calls 'keep_max', where '#pragma omp critical' is not supported yet"], \
        proc.stderr
    code = out.read_text()
    assert code.count("#pragma omp parallel for") == 1
    assert "#pragma omp atomic\n    gridd[c] = gridd[c] + qd;\n" \
        "    #pragma omp atomic\n    grid[c] = grid[c] + q;" in code, code


def test_tangent_of_loops_calling_parallel_loops(tmp_path):
    """A parallel loop calling a function with a parallel loop of its own: the tangent
    keeps both (the inner one a nested region, run by the thread that calls it), and
    gives the serial results on 1, 2 and 4 threads."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    src = write(tmp_path, "rows.c", """\
#include <math.h>
static void row(int m, const double *x, double *y)
{
    int j;
#pragma omp parallel for
    for (j = 0; j < m; j++)
        y[j] = sin(x[j]) * x[j];
}
void rows(int n, int m, const double *x, double *y)
{
    int i;
#pragma omp parallel for schedule(static)
    for (i = 0; i < n; i++)
        row(m, &x[i * m], &y[i * m]);
}
""")
    out = tmp_path / "rows_d.c"
    proc = adgen("--forward", src, "--head", "rows(y)/(x)", "--size", "x=n*m", "--size",
                 "y=n*m", "-o", out)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    assert out.read_text().count("#pragma omp parallel for") == 2
    run_on_threads(tmp_path, out, r"""
#include <stdio.h>
#include <math.h>
#define N 300
#define M 40
void rows_d(int n, int m, const double *x, const double *xd, double *y, double *yd);
int main(void)
{
    static double x[N * M], xd[N * M], y[N * M], yd[N * M];
    int k;
    for (k = 0; k < N * M; k++) {
        x[k] = sin(0.01 * k);
        xd[k] = cos(0.02 * k);
    }
    dirty_stacks();
    rows_d(N, M, x, xd, y, yd);
    for (k = 0; k < N * M; k++)
        printf("%.17g %.17g\n", y[k], yd[k]);
    return 0;
}
""")


MIXED = """\
#include <math.h>
void mixed(int n, int m, const int *c, const double *x, double *y, double *s)
{
    int i;
    double a = 0.0, w[2];
#pragma omp parallel for reduction(+:a) private(w)
    for (i = 0; i < n; i++) {
        double t = x[i];
        if (t < 0.5)
            continue;
        w[0] = t * t;
        w[0] = w[0] * w[0] + t;
        a += w[0];
    }
    s[0] = a;
#pragma omp parallel for reduction(+:y[:m])
    for (i = 0; i < n; i++)
        y[c[i]] += sin(x[i]);
}
"""
MIXED_DRIVER = r"""
#include <stdio.h>
#include <math.h>
#define N 20000
#define M 10
void mixed_d(int n, int m, const int *c, const double *x, const double *xd, double *y,
             double *yd, double *s, double *sd);
void mixed_b(int n, int m, const int *c, const double *x, double *xb, double *y,
             double *yb, double *s, double *sb);
int main(void)
{
    static double x[N], xd[N];
    static int c[N];
    double y[M], yd[M], s, sd;
    int i;
    for (i = 0; i < N; i++) {
        x[i] = 0.5 + 0.45 * sin(0.37 * i);
        xd[i] = cos(0.11 * i);
        c[i] = (i * 7) % M;
    }
    for (i = 0; i < M; i++) {
        y[i] = 0.1 * i;
        yd[i] = 1.0 + 0.1 * i;      /* (the adjoint's seeds) */
    }
    dirty_stacks();
#ifdef ADJOINT
    sd = 0.75;
    mixed_b(N, M, c, x, xd, y, yd, &s, &sd);
    for (i = 0; i < N; i++)
        printf("%.17g\n", xd[i]);
#else
    for (i = 0; i < M; i++)
        yd[i] = 0.0;
    mixed_d(N, M, c, x, xd, y, yd, &s, &sd);
    for (i = 0; i < M; i++)
        printf("%.17g %.17g\n", y[i], yd[i]);
    printf("%.17g %.17g\n", s, sd);
#endif
    return 0;
}
"""


@pytest.mark.parametrize("mode", ["--forward", "--reverse"])
def test_loops_with_sections_private_arrays_and_branches(tmp_path, mode):
    """A sum over an array section (`reduction(+:y[:m])`): the tangent reduces the same
    section of the tangent (before, it raced on it); a parallel sum whose iterations take
    a branch and overwrite an array the pragma makes private: the adjoint's flag and the
    array's adjoint are each thread's own (before, both were shared and raced). On 1, 2
    and 4 threads the results are the serial ones to rounding."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    src = write(tmp_path, "mixed.c", MIXED)
    (tmp_path / "plain").mkdir()
    plain = write(tmp_path / "plain", "mixed.c", "".join(
        line for line in MIXED.splitlines(True) if not line.startswith("#pragma omp")))
    suffix = "_b" if mode == "--reverse" else "_d"
    out, serial = tmp_path / f"mixed{suffix}.c", plain.parent / f"mixed{suffix}.c"
    for source, target in ((src, out), (plain, serial)):
        proc = adgen(mode, source, "--head", "mixed(y s)/(x)", "--size", "x=n", "--size",
                     "y=m", "-o", target)
        assert proc.returncode == 0, proc.stderr
    code = out.read_text()
    if mode == "--forward":
        assert "reduction(+: y[:m], yd[:m])" in code, code
    else:
        pragma = next(line for line in code.splitlines() if "reduction(+: a)" in line)
        assert " branch" in pragma and " wb" in pragma, pragma
    run_on_threads(tmp_path, out, MIXED_DRIVER, ["-DADJOINT"] if mode == "--reverse" else [],
                   serial_source=serial)


def test_fortran_directives_left_out_keep_loops_serial(tmp_path):
    """An `!$omp` directive the derivative code leaves out (a critical section that is not
    a sum, an atomic over something else than an update) is said at its line, and a
    parallel loop that reaches it runs serially (threads would race where it was); one
    whose sections are sums stays parallel."""
    src = write(tmp_path, "m.f90", """\
subroutine m(n, x, best, total)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: best, total
  integer :: i
!$omp parallel do
  do i = 1, n
!$omp critical
    if (x(i) * x(i) > best) best = x(i) * x(i)
!$omp end critical
  end do
!$omp parallel do
  do i = 1, n
!$omp atomic
    total = total + sin(x(i))
  end do
!$omp parallel do
  do i = 1, n
    call keep(x(i), best)
  end do
end subroutine
subroutine keep(v, best)
  implicit none
  real(8), intent(in) :: v
  real(8), intent(inout) :: best
!$omp atomic write
  best = v
end subroutine
""")
    out = tmp_path / "m_d.c"
    proc = adgen("--forward", src, "--head", "m(best total)/(x)", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert sorted(proc.stderr.splitlines()) == sorted([
        f"{src}:9:1: warning: '!$omp critical' is not supported yet: the derivative code "
        "runs this part serially",
        f"{src}:27:1: warning: '!$omp atomic write' is not supported yet: the derivative "
        "code runs this part serially",
        f"{src}:7:1: warning: '!$omp parallel do': the tangent runs this loop serially: "
        "'!$omp critical' inside it is not supported yet",
        f"{src}:18:1: warning: '!$omp parallel do': the tangent runs this loop serially: it "
        "calls 'keep', where '!$omp atomic write' is not supported yet"]), proc.stderr
    code = out.read_text()
    assert code.count("#pragma omp parallel for") == 1, code
    assert "#pragma omp atomic\n        *totald = *totald + cos(x[i - 1]) * xd[i - 1];" in code


def test_exclusive_update_other_than_sum_is_refused(tmp_path):
    """An atomic product of a variable with derivatives: its tangent reads both the value
    and its tangent, which two exclusive updates cannot keep together: an error, not a
    race."""
    src = write(tmp_path, "mul.c", """\
void mul(int n, const double *x, double *prod)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++) {
#pragma omp atomic
        *prod *= x[i];
    }
}
""")
    for mode in ("--forward", "--vector"):
        proc = adgen(mode, src, "--head", "mul(prod)/(x)", "-o", tmp_path / "mul_d.c")
        assert proc.returncode == 1, proc.stderr
        assert proc.stderr.startswith(
            f"{src}:7:10: error: '#pragma omp atomic' over '*prod = *prod * x[i]', which "
            "carries derivatives: only sums (x += e, x -= e) are supported yet"), proc.stderr
        assert not (tmp_path / "mul_d.c").exists()


def test_openmp_runtime_calls_are_inactive(tmp_path):
    """<omp.h>'s routines carry no derivatives: the output calls them where the program
    does, in both sweeps' loops, and a value that depends on the thread (a coefficient of
    each thread's) is the forward iteration's in the backward one, whichever thread runs
    it: on 1, 2 and 4 threads the gradient is the one the forward sweep's thread numbers
    give."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    src = write(tmp_path, "tid.c", """\
#include <omp.h>
static omp_lock_t lock;
void tid(int n, const double *x, const double *coef, double *y, double *elapsed)
{
    int i;
    double t0 = omp_get_wtime();
    omp_init_lock(&lock);
#pragma omp parallel for schedule(static)
    for (i = 0; i < n; i++) {
        int t = omp_get_thread_num() % 4;
        y[i] = x[i] * x[i] * coef[t];
    }
#pragma omp parallel for
    for (i = 0; i < n; i++) {
        omp_set_lock(&lock);
        elapsed[0] = omp_get_wtime() - t0;
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
}
""")
    out = tmp_path / "tid_b.c"
    proc = adgen("--reverse", src, "--head", "tid(y)/(x)", "--size", "coef=4", "-o", out)
    assert proc.returncode == 0, proc.stderr
    driver = write(tmp_path, "driver.c", r"""
#include <stdio.h>
#include <math.h>
#define N 4000
void tid_b(int n, const double *x, double *xb, const double *coef, double *y, double *yb,
           double *elapsed);
int main(void)
{
    static double x[N], xb[N], y[N], yb[N];
    double coef[4] = {1.0, 2.0, 3.0, 4.0}, elapsed, worst = 0.0;
    int i;
    for (i = 0; i < N; i++) {
        x[i] = 1.0 + 0.5 * sin(0.1 * i);
        yb[i] = cos(0.3 * i);
    }
    tid_b(N, x, xb, coef, y, yb, &elapsed);
    for (i = 0; i < N; i++) {
        /* the coefficient of the thread that ran iteration i in the forward sweep */
        double used = y[i] / (x[i] * x[i]);
        double want = 2.0 * x[i] * used * cos(0.3 * i);
        worst = fmax(worst, fabs(xb[i] - want) / fabs(want));
    }
    printf("%.3g\n", worst);
    return worst < 1e-12 ? 0 : 1;
}
""")
    exe = tmp_path / "tid"
    built = subprocess.run([CC] + WERROR + ["-O2", "-fopenmp", str(out), str(driver), "-lm",
                                            "-o", str(exe)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    code = out.read_text()
    # (the loop of the lock runs serially in the adjoint: it calls more than math)
    assert code.count("#pragma omp parallel for") == 2, code
    assert "#include <omp.h>" in code and "omp_set_lock(&lock);" in code, code
    proc = adgen("--forward", src, "--head", "tid(y)/(x)", "--size", "coef=4", "-o",
                 tmp_path / "tid_d.c")
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    assert (tmp_path / "tid_d.c").read_text().count("#pragma omp parallel for") == 2
    for threads in (1, 2, 4):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_DYNAMIC="false")
        run = subprocess.run([str(exe)], capture_output=True, text=True, env=env)
        assert run.returncode == 0, (threads, run.stdout, run.stderr)


def test_fortran_regions_of_one_loop(tmp_path):
    """An `!$omp parallel` region whose one statement is its `!$omp do` loop is the
    combined `!$omp parallel do` (its clauses and the loop's merged); a region with other
    statements, before its loop or after it, runs serially, with a warning at its line."""
    program = ROOT / "testsuite" / "fortran" / "openmp_region_do.f90"
    for mode in ("--forward", "--reverse"):
        out = tmp_path / "r.c"
        proc = adgen(mode, program, "--head", "relax(v)/(u w)", "-o", out)
        assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
        assert out.read_text().count("#pragma omp parallel for") == (
            1 if mode == "--forward" else 2)
    text = program.read_text()
    for name, changed, line in (
            ("before", text.replace("!$omp do schedule", "  t = 1d0\n!$omp do schedule"),
             20),
            ("after", text.replace("!$omp end do\n", "!$omp end do\n  t = 2d0\n"), 20)):
        src = write(tmp_path, f"{name}.f90", changed)
        for mode in ("--forward", "--reverse"):
            out = tmp_path / f"{name}.c"
            proc = adgen(mode, src, "--head", "relax(v)/(u w)", "-o", out)
            assert proc.returncode == 0, proc.stderr
            assert f"{src}:{line}:1: warning: '!$omp parallel private(t) shared(u, v)' is " \
                "not supported yet" in proc.stderr, proc.stderr
            assert "#pragma omp parallel" not in out.read_text(), name


def test_adjoint_of_loops_it_cannot_show_independent_runs_serially(tmp_path):
    """Where adgen cannot show that the backward iterations touch only their own
    elements or adjoints they add into, the loop's adjoint runs serially and says why."""
    src = write(tmp_path, "m.c", """\
#include <math.h>
static double twice(double a)
{
    return 2.0 * a;
}
void m(int n, const double *x, const int *idx, double *y, double *z, double *w, double *v)
{
    int i, j;
#pragma omp parallel for
    for (i = 1; i < n; i++)
        y[i] = y[i - 1] * 0.5 + x[i];
#pragma omp parallel for
    for (i = 0; i < n; i++)
        z[idx[i]] = x[i] * x[i];
#pragma omp parallel for
    for (i = 0; i < n / 2; i++) {
        w[2 * i] = x[i];
        w[2 * i + 1] = -x[i];
    }
#pragma omp parallel for
    for (i = 0; i < n; i++)
        v[i] = twice(x[i]);
#pragma omp parallel for private(j)
    for (i = 0; i < n; i++)
        for (j = 0; j < 3; j++)
            v[i] = sin(v[i]) * x[n - 1 - i];
}
""")
    out = tmp_path / "m_b.c"
    proc = adgen("--reverse", src, "--head", "m(y z w v)/(x)", "--size", "y=n", "--size",
                 "z=n", "--size", "w=n", "--size", "v=n", "-o", out)
    assert proc.returncode == 0, proc.stderr
    serially = "warning: '#pragma omp parallel for' is not supported here yet: the " \
        "adjoint runs this loop serially: "
    assert proc.stderr.splitlines() == [
        f"{src}:9:9: {serially}it writes 'y[i]' and also accesses 'y[i - 1]': an iteration "
        "may reach another's elements",
        f"{src}:12:9: {serially}it writes 'z[idx[i]]': an iteration may reach another's "
        "elements",
        f"{src}:15:9: {serially}it writes 'w[2 * i]' and also accesses 'w[2 * i + 1]': an "
        "iteration may reach another's elements",
        f"{src}:20:9: {serially}it calls 'twice' (only calls of math functions are "
        "supported yet)",
        f"{src}:23:9: {serially.replace('for', 'for private(j)')}its forward sweep stores "
        "'v[i]' for the backward sweep"], \
        proc.stderr
    assert "#pragma omp parallel" not in out.read_text()
    # (stored once an iteration, not in an inner loop: in slots of each iteration's, and
    # the loop parallel)
    plain = write(tmp_path, "p.c", """\
#include <math.h>
void p(int n, const double *x, double *v)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++)
        v[i] = sin(v[i]) * x[n - 1 - i];
}
""")
    proc = adgen("--reverse", plain, "--head", "p(v)/(x)", "--size", "v=n", "-o", out)
    assert proc.returncode == 0, proc.stderr
    code = out.read_text()
    assert "v_kept[i] = v[i];" in code and "v[i] = v_kept[iter];" in code, code
    assert code.count("#pragma omp parallel for") == 2, code
    # an array read through an index adgen cannot bound: its adjoint's length unknown
    src = write(tmp_path, "u.c", """\
void u(int n, const double *x, const int *idx, double *y)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++)
        y[i] = x[idx[i]] * x[idx[i]];
}
""")
    proc = adgen("--reverse", src, "--head", "u(y)/(x)", "-o", tmp_path / "u_b.c")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"{src}:4:9: {serially}an input's adjoint is zeroed as it is read (give the lengths "
        "of the arrays with --size)"], proc.stderr
    proc = adgen("--reverse", src, "--head", "u(y)/(x)", "--size", "x=n", "-o",
                 tmp_path / "u_b.c")
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    assert "#pragma omp parallel for schedule(static) firstprivate(i, xb_part)" in \
        (tmp_path / "u_b.c").read_text()
    # a sum the pragma does not reduce: the threads would share it
    src = write(tmp_path, "s.c", """\
#include <math.h>
void s(int n, const double *x, double *out)
{
    double t = 0.0;
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++) {
        double c = cos(x[i]);
        t = t + c * c;
    }
    out[0] = t;
}
""")
    proc = adgen("--reverse", src, "--head", "s(out)/(x)", "--size", "x=n", "-o",
                 tmp_path / "s_b.c")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"{src}:6:9: {serially}an iteration may read 't' before setting it (a value carried "
        "from the iteration before)"], proc.stderr
    assert "#pragma omp parallel" not in (tmp_path / "s_b.c").read_text()


def test_adjoint_without_room_for_parts_adds_atomically(tmp_path):
    """On the static stack whose size is not given, the room of each thread's parts of
    the adjoints cannot be told (it depends on the number of threads): the backward loop
    still runs in parallel, an array's adjoint added into atomically and a number's in a
    reduction of the pragma, and on 1, 2 and 4 threads the gradient is the serial one to
    rounding."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    name = "openmp_jacobi"
    head, driver_text = OWN_ELEMENTS[name][:2]
    program = ROOT / "testsuite" / "c" / f"{name}.c"
    out = tmp_path / f"{name}_b.c"
    proc = adgen("--reverse", program, "--head", head, "--stack=static", "-o", out)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    code = out.read_text()
    assert "reduction(+: cb_sum)" in code and "*cb = *cb + cb_sum;" in code, code
    assert "#pragma omp atomic\n        ub[i - 1] = ub[i - 1] + tempb;" in code, code
    assert "_threads" not in code, code
    serial = tmp_path / "plain"
    serial.mkdir()
    plain = write(serial, program.name, "".join(
        line for line in program.read_text().splitlines(True)
        if not line.strip().startswith("#pragma omp")))
    proc = adgen("--reverse", plain, "--head", head, "--stack=static", "-o", serial / out.name)
    assert proc.returncode == 0, proc.stderr
    run_on_threads(tmp_path, out, driver_text, serial_source=serial / out.name)


def test_tangent_of_a_loop_racing_on_a_scalar_runs_serially(tmp_path):
    """A scalar that an iteration reads before it sets it, in no reduction clause, carries
    a value between iterations (the program's loop races on it): the tangent would make it
    private and lose it, so the loop runs serially, with a warning. A scalar each
    iteration sets first stays private."""
    src = write(tmp_path, "m.c", """\
#include <math.h>
void m(int n, const double *x, double *y)
{
    int i;
    double s = 0, t;
#pragma omp parallel for
    for (i = 0; i < n; i++)
        s += sin(x[i]);
#pragma omp parallel for
    for (i = 0; i < n; i++) {
        t = x[i] * x[i];
        y[i + 1] = t;
    }
    y[0] = s;
}
""")
    out = tmp_path / "m_d.c"
    proc = adgen("--forward", src, "--head", "m(y)/(x)", "-o", out, "--size", "y=n+1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"{src}:6:9: warning: '#pragma omp parallel for': the tangent runs this loop "
        "serially: an iteration may read 's' before setting it (a value carried from the "
        "iteration before), and no reduction clause names it: the loop races on it"], \
        proc.stderr
    assert [line.strip() for line in out.read_text().splitlines()
            if line.strip().startswith("#pragma omp")] == [
        "#pragma omp parallel for private(t, td)"]


REGIONS = ROOT / "testsuite" / "c" / "openmp_regions.c"
REGIONS_HEAD = "openmp_regions(unew v res)/(u f c w)"
REGIONS_DRIVER = r"""
#include <stdio.h>
#include <math.h>
#define N 3000
void openmp_regions_d(int n, const double *u, const double *ud, const double *f,
                      const double *fd, double c, double cd, double w, double wd,
                      double *unew, double *unewd, double *v, double *vd, double *res,
                      double *resd);
void openmp_regions_b(int n, const double *u, double *ub, const double *f, double *fb,
                      double c, double *cb, double w, double *wb, double *unew,
                      double *unewb, double *v, double *vb, double *res, double *resb);
int main(void)
{
    static double u[N], ud[N], f[N], fd[N], unew[N], unewd[N], v[N], vd[N];
    double res, resd;
    int i;
    for (i = 0; i < N; i++) {
        u[i] = sin(0.37 * i + 0.1);
        f[i] = cos(0.21 * i);
        ud[i] = cos(0.11 * i);
        fd[i] = sin(0.05 * i);
    }
    dirty_stacks();
#ifdef ADJOINT
    double cb = 0.0, wb = 0.0;
    resd = 0.7;
    for (i = 0; i < N; i++) {
        vd[i] = sin(0.13 * i + 0.7);
        unewd[i] = cos(0.3 * i);
    }
    openmp_regions_b(N, u, ud, f, fd, 0.8, &cb, 1.3, &wb, unew, unewd, v, vd, &res, &resd);
    for (i = 0; i < N; i++)
        printf("%.17g %.17g\n", ud[i], fd[i]);
    printf("%.17g %.17g\n", cb, wb);
#else
    openmp_regions_d(N, u, ud, f, fd, 0.8, 0.3, 1.3, -0.2, unew, unewd, v, vd, &res, &resd);
    for (i = 0; i < N; i++)
        printf("%.17g %.17g %.17g %.17g\n", unew[i], unewd[i], v[i], vd[i]);
    printf("%.17g %.17g\n", res, resd);
#endif
    return 0;
}
"""


def test_parallel_regions_of_one_loop_stay_parallel(tmp_path):
    """A parallel region that runs one `omp for` loop (its own scalars, `nowait`,
    `default(none)`, the loop's reduction listed `shared` on the region; or the two
    directives before a loop without braces) is the combined `parallel for`: the tangent
    and the adjoint keep it parallel, and on 1, 2 and 4 threads give the serial results."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    tangent, adjoint = tmp_path / "r_d.c", tmp_path / "r_b.c"
    proc = adgen("--forward", REGIONS, "--head", REGIONS_HEAD, "-o", tangent)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    assert [line.strip() for line in tangent.read_text().splitlines()
            if line.strip().startswith("#pragma omp")] == [
        "#pragma omp parallel for schedule(static) reduction(+: r, rd) shared(u, ud, f, fd, "
        "unew, unewd) firstprivate(c, cd, n) private(t, td) private(value)",
        "#pragma omp parallel for private(value2)"]
    run_on_threads(tmp_path, tangent, REGIONS_DRIVER)
    proc = adgen("--reverse", REGIONS, "--head", REGIONS_HEAD, "-o", adjoint)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    # both backward loops run in parallel, over the iterations from the last
    backward = [line for line in adjoint.read_text().splitlines()
                if line.strip().startswith("#pragma omp parallel for schedule(static) "
                                           "firstprivate(")]
    assert len(backward) == 2, backward
    plain = write(tmp_path, "plain.c", "".join(
        line for line in REGIONS.read_text().splitlines(True)
        if not line.strip().startswith("#pragma omp")))
    serial = tmp_path / "plain_b.c"
    proc = adgen("--reverse", plain, "--head", REGIONS_HEAD, "-o", serial)
    assert proc.returncode == 0, proc.stderr
    run_on_threads(tmp_path, adjoint, REGIONS_DRIVER, ["-DADJOINT"], same_runs=True,
                   serial_source=serial)


def test_parallel_regions_of_other_shapes_run_serially(tmp_path):
    """A region with more than one loop, other statements, an array of its own or a
    name that shadows another is left as written: serial, with a warning at each
    directive."""
    src = write(tmp_path, "m.c", """\
#include <math.h>
void m(int n, const double *x, double *y, double *z)
{
    double t = 1.0;
    int i;
#pragma omp parallel
    {
#pragma omp for
        for (i = 0; i < n; i++)
            y[i] = sin(x[i]);
#pragma omp for
        for (i = 0; i < n; i++)
            z[i] = cos(x[i]);
    }
#pragma omp parallel
    {
        double t;
#pragma omp for
        for (i = 0; i < n; i++) {
            t = x[i] * x[i];
            y[i] = y[i] + t;
        }
    }
#pragma omp parallel
    {
        double s[2];
#pragma omp for
        for (i = 0; i < n; i++) {
            s[0] = x[i];
            z[i] = z[i] * s[0];
        }
    }
    z[0] = z[0] * t;
}
""")
    out = tmp_path / "m_d.c"
    proc = adgen("--forward", src, "--head", "m(y z)/(x)", "-o", out)
    assert proc.returncode == 0, proc.stderr
    lines = sorted(int(line.split(":")[1]) for line in proc.stderr.splitlines()
                   if "is not supported yet: the derivative code runs this part serially"
                   in line)
    assert lines == [6, 8, 11, 15, 18, 24, 27], proc.stderr
    assert "#pragma omp parallel" not in out.read_text()
