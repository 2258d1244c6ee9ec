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
        y[0] += sin(x[i]);
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
    """Fortran's `!$omp parallel do reduction(+:s)`: its adjoint runs in parallel too (the
    sweep before it, which writes v, serially, with the warning)."""
    if not openmp_works(tmp_path):
        pytest.skip(f"{CC} cannot build OpenMP programs here (-fopenmp, libgomp)")
    out = tmp_path / "f_b.c"
    proc = adgen("--reverse", FORTRAN, "--head", "smooth(v energy)/(u w)", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert f"{FORTRAN}:21:3: warning: '!$omp parallel do private(t, pair) schedule(static)' " \
        "is not supported here yet: the adjoint runs this loop serially: its forward sweep " \
        "stores 't' for the backward sweep" in proc.stderr, proc.stderr
    assert "#pragma omp parallel for reduction(+: s) firstprivate(" in out.read_text()
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


# loops whose iterations write their own elements: the program, its head, and a driver
# that calls its adjoint and prints every adjoint
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
    head, driver_text = OWN_ELEMENTS[name]
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
    proc = adgen("--reverse", program, "--head", head, "-o", out, *stack_flags)
    assert proc.returncode == 0, proc.stderr
    code = out.read_text()
    # the loop that stores nothing runs in parallel in both sweeps: the primal loop with
    # the program's pragma, then the `for` over its iterations backwards with a static
    # schedule
    lines = code.splitlines()
    after = [(line.strip(), lines[k + 1].strip()) for k, line in enumerate(lines)
             if line.strip().startswith("#pragma omp parallel for")]
    backward = [loop for pragma, loop in after if loop.startswith("for (iter")]
    assert len(backward) == 1 and ">= 0" in backward[0], after
    assert [pragma for pragma, loop in after if loop.startswith("for (iter")][0].startswith(
        "#pragma omp parallel for schedule(static) firstprivate("), after
    assert len(after) == 2, after
    if name == "openmp_heat_steps":
        # (the copy back overwrites u, which the stencil's backward sweep reads: stored)
        assert proc.stderr.splitlines() == [
            f"{program}:23:9: warning: '#pragma omp parallel for' is not supported here yet: "
            "the adjoint runs this loop serially: its forward sweep stores 'u[i]' for the "
            "backward sweep"], proc.stderr
    else:
        assert "warning" not in proc.stderr, proc.stderr
    proc = adgen("--reverse", plain, "--head", head, "-o", serial_out, *stack_flags)
    assert proc.returncode == 0, proc.stderr
    assert "#pragma omp" not in serial_out.read_text()
    run_on_threads(tmp_path, out, driver_text, same_runs=True, serial_source=serial_out)


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
    int i;
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
#pragma omp parallel for
    for (i = 0; i < n; i++)
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
        f"{src}:23:9: {serially}its forward sweep stores 'v[i]' for the backward sweep"], \
        proc.stderr
    assert "#pragma omp parallel" not in out.read_text()
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
    # on the static stack, the room of each thread's adjoints must be given
    proc = adgen("--reverse", ROOT / "testsuite" / "c" / "openmp_jacobi.c", "--stack=static",
                 "-o", tmp_path / "j_b.c")
    assert proc.returncode == 0, proc.stderr
    assert "the adjoint runs this loop serially: with --stack=static, the room its " \
        "adjoints of each thread's take depends on the number of threads: give the " \
        "stack's size with --stack-size BYTES" in proc.stderr, proc.stderr
    assert "#pragma omp parallel" not in (tmp_path / "j_b.c").read_text()


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
