"""--stack=static: the adjoint keeps its values in a static buffer and touches no heap;
its size is derived from the program or given, overflow sets a flag and corrupts nothing;
--stack-report gives the bytes pushed per call. (The whole test suite also runs in this
mode: `make test-static`.)"""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CHAIN = """
    #include <math.h>
    void chain(int n, const double *x, double *y)
    {
        double s = 1.0;
        int i;
        for (i = 0; i < n; i++)
            s = s * sin(x[i]) + x[i];
        y[0] = s;
    }
"""

FIXED = """
    #include <math.h>
    #define N 16
    /* a state buffer that is neither input nor output of the head: internal adjoint
       storage, which the static stack provides too */
    static void relax(double *u, const double *k)
    {
        int i;
        for (i = 1; i < N - 1; i++)
            u[i] = u[i] + k[i] * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
    }
    void energy(const double *k, double *u, double *e)
    {
        int it, i;
        for (it = 0; it < 4; it++)
            relax(u, k);
        e[0] = 0.0;
        for (i = 0; i < N; i++)
            e[0] = e[0] + u[i] * u[i] * exp(-k[i]);
    }
"""

# red-black sweeps: loops of stride 2 whose trip counts adgen bounds ((span + 1) / 2)
STRIDED = FIXED.replace("""        for (i = 1; i < N - 1; i++)
            u[i] = u[i] + k[i] * (u[i - 1] - 2.0 * u[i] + u[i + 1]);""", """        for (i = 1; i < N - 1; i += 2)
            u[i] = u[i] + k[i] * sin(u[i - 1] - 2.0 * u[i] + u[i + 1]);
        for (i = 2; i < N - 1; i += 2)
            u[i] = u[i] + k[i] * sin(u[i - 1] - 2.0 * u[i] + u[i + 1]);""")

# an element every iteration of a loop adds into, pushed once for the loop (counted once
# more than pushed: the last loop runs no iteration), and a branch's flag; no callee, so
# that the size derived is the bytes pushed
HOISTED = """
    #include <math.h>
    #define N 16
    void energy(const double *k, double *u, double *e)
    {
        int i, j;
        for (i = 0; i < N; i++)
            for (j = i + 1; j < N; j++)
                u[i] = u[i] + 0.1 * k[j] * sin(u[j]);
        for (i = 0; i < N; i++)
            if (u[i] > 0.5)
                u[i] = 0.5 * u[i] * u[i] + 0.25;
        e[0] = 0.0;
        for (i = 0; i < N; i++)
            e[0] = e[0] + u[i] * u[i] * exp(-k[i]);
    }
"""

MAIN = """
    #include <stdio.h>
    #include <math.h>
    void energy(const double *k, double *u, double *e);
    void energy_b(const double *k, double *kb, double *u, double *e, double *eb);
    #ifndef FLAG
    #define FLAG no_flag
    #define NO_FLAG
    #endif
    #ifndef NO_FLAG
    extern int FLAG;        /* the static stack's overflow flag, named after the output */
    #else
    static int FLAG = 0;
    #endif
    int main(void)
    {
        double k[16], kb[16], u[16], e, eb = 1.0;
        int i;
        for (i = 0; i < 16; i++) { k[i] = 0.1 + 0.01 * i; u[i] = sin(0.3 * i); }
        energy_b(k, kb, u, &e, &eb);
        printf("%d", FLAG);
        for (i = 0; i < 16; i++) printf(" %.17g", kb[i]);
        printf("\\n");
        return 0;
    }
"""


def adgen(tmp_path, source, *args):
    src = tmp_path / "prog.c"
    src.write_text(textwrap.dedent(source))
    return subprocess.run([sys.executable, "-m", "adgen", "-b", str(src)] + list(args),
                          capture_output=True, text=True, cwd=tmp_path)


def build_and_run(tmp_path, name, sources, flags=()):
    exe = tmp_path / name
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-O1"] + list(flags) +
                   [str(s) for s in sources] + ["-lm", "-o", str(exe)], check=True,
                   cwd=tmp_path)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def undefined_symbols(tmp_path, source):
    obj = tmp_path / "check.o"
    subprocess.run(["gcc", "-std=c99", "-c", str(source), "-o", str(obj)], check=True)
    out = subprocess.run(["nm", "-u", str(obj)], capture_output=True, text=True, check=True)
    return {line.split()[-1] for line in out.stdout.splitlines() if line.strip()}


@pytest.mark.parametrize("source", [FIXED, STRIDED, HOISTED],
                         ids=["fixed", "strided", "hoisted"])
def test_size_derived_no_heap_same_gradient(tmp_path, source):
    head = "energy(e)/(k)"
    static = adgen(tmp_path, source, "--head", head, "--stack=static", "-o", "static_b.c")
    assert static.returncode == 0, static.stderr
    text = (tmp_path / "static_b.c").read_text()
    assert "adgen_stack_alloc" in text     # u's adjoint lives on the stack
    assert not undefined_symbols(tmp_path, tmp_path / "static_b.c") & \
        {"malloc", "calloc", "realloc", "free"}
    heap = adgen(tmp_path, source, "--head", head, "-o", "heap_b.c")
    assert heap.returncode == 0, heap.stderr
    (tmp_path / "main.c").write_text(textwrap.dedent(MAIN))
    flags = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
    a = build_and_run(tmp_path, "a", ["prog.c", "static_b.c", "main.c"],
                      flags + ["-DFLAG=static_b_stack_overflow"])
    b = build_and_run(tmp_path, "b", ["prog.c", "heap_b.c", "main.c"], flags)
    assert a.split()[0] == "0" and a == b


def test_size_derived_counts_the_locals_a_split_callee_passes_on(tmp_path):
    """In split mode the callee's forward sweep ends by pushing the locals its backward
    sweep reads (here a and b, dearer to compute again than to store): counted too."""
    source = """
        #include <math.h>
        static double cell(const double *x, int i)
        {
            double a = sin(x[i]);
            double b = exp(a);
            return a * b;
        }
        void total(const double *x, double *e)
        {
            int i;
            e[0] = 0.0;
            for (i = 0; i < 16; i++) {
        #pragma adgen nocheckpoint
                e[0] += cell(x, i);
            }
        }
    """
    r = adgen(tmp_path, source, "--head", "total(e)/(x)", "--stack=static", "--stack-report",
              "-o", "static_b.c")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("total_b: stack: 256 bytes pushed per call"), r.stdout
    (tmp_path / "main.c").write_text(textwrap.dedent("""
        #include <stdio.h>
        void total_b(const double *x, double *xb, double *e, double *eb);
        extern int static_b_stack_overflow;
        int main(void)
        {
            double x[16], xb[16], e, eb = 1.0;
            int i;
            for (i = 0; i < 16; i++) x[i] = 0.1 * i;
            total_b(x, xb, &e, &eb);
            printf("%d %.17g\\n", static_b_stack_overflow, xb[3]);
            return 0;
        }
    """))
    out = build_and_run(tmp_path, "a", ["prog.c", "static_b.c", "main.c"],
                        ["-Wno-unknown-pragmas"])
    flag, xb3 = out.split()
    assert flag == "0"
    import math
    a = math.sin(0.3)
    assert abs(float(xb3) - math.cos(0.3) * math.exp(a) * (1.0 + a)) < 1e-12


def test_size_that_depends_on_the_inputs_must_be_given(tmp_path):
    r = adgen(tmp_path, CHAIN, "--head", "chain(y)/(x)", "--stack=static")
    assert r.returncode == 1
    assert "prog.c:3:" in r.stderr and "depends on n" in r.stderr and \
        "--stack-size" in r.stderr
    r = adgen(tmp_path, "#pragma adgen stack_size(4096)\n" + CHAIN, "--head",
              "chain(y)/(x)", "--stack=static", "-o", "b.c")
    assert r.returncode == 0, r.stderr
    assert "((size_t)(4096))" in (tmp_path / "b.c").read_text()


def test_overflow_sets_the_flag_and_touches_nothing_else(tmp_path):
    r = adgen(tmp_path, CHAIN, "--head", "chain(y)/(x)", "--stack=static",
              "--stack-size", "64", "-o", "b.c")
    assert r.returncode == 0, r.stderr
    (tmp_path / "main.c").write_text(textwrap.dedent("""
        #include <stdio.h>
        void chain_b(int n, const double *x, double *xb, double *y, double *yb);
        extern int b_stack_overflow;
        int main(void)
        {
            double x[100], xb[100], y, yb = 1.0;
            int i;
            for (i = 0; i < 100; i++) x[i] = 0.5 + 0.01 * i;
            chain_b(100, x, xb, &y, &yb);        /* 800 bytes: does not fit */
            printf("%d ", b_stack_overflow);
            b_stack_overflow = 0;
            yb = 1.0;
            chain_b(8, x, xb, &y, &yb);          /* 64 bytes: fits */
            printf("%d %.12f\\n", b_stack_overflow, xb[0]);
            return 0;
        }
    """))
    out = build_and_run(tmp_path, "m", ["prog.c", "b.c", "main.c"],
                        ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"])
    flag_big, flag_small, xb0 = out.split()
    assert (flag_big, flag_small) == ("1", "0")
    # d y / d x0 for n = 8, by hand: s1 = sin(x0) + x0, then s <- s sin(xi) + xi
    import math
    x = [0.5 + 0.01 * i for i in range(8)]
    grad = math.cos(x[0]) + 1.0
    for xi in x[1:]:
        grad *= math.sin(xi)
    assert float(xb0) == pytest.approx(grad, rel=1e-10)


@pytest.mark.parametrize("source, head, expected", [
    (CHAIN, "chain(y)/(x)", "chain_b: stack: 8 * n bytes pushed per call"),
    (FIXED, "energy(e)/(k)", "energy_b: stack: "),
    # at most n / 2 iterations of 8 bytes for the odd elements, (n - 1) / 2 for the even
    ("""
        #include <math.h>
        void rb(int n, int m, double *x, double *y)
        {
            int i, k;
            for (k = 0; k < m; k++) {
                for (i = 1; i < n; i += 2)
                    x[i] = sin(x[i]) + x[i - 1];
                for (i = 2; i < n; i += 2)
                    x[i] = cos(x[i]) * x[i - 1];
            }
            y[0] = x[n - 1];
        }
    """, "rb(y)/(x)", "rb_b: stack: at most 8 * m * n + 8 * n + 24 bytes pushed per call"),
    # counting down: at most (n + 1) / 2 and n / 3 iterations of 8 bytes per step
    ("""
        #include <math.h>
        void down(int n, int m, double *x, double *y)
        {
            int i, k;
            for (k = 0; k < m; k++) {
                for (i = n - 1; i >= 0; i -= 2)
                    x[i] = sin(x[i]) + 0.5 * x[i];
                for (i = n - 2; i > 0; i -= 3)
                    x[i] = cos(x[i]) * x[i - 1];
            }
            y[0] = x[0] + x[n - 1];
        }
    """, "down(y)/(x)",
     "down_b: stack: at most (20 * m * n + 12 * m + 24 * n + 72) / 3 bytes pushed per call"),
    # the flag of the branch taken: one int per iteration, not one per branch
    ("""
        void clip(int n, double *x, double *y)
        {
            int i;
            for (i = 0; i < n; i++)
                if (x[i] > 0.5)
                    x[i] = 0.5 * x[i] + 0.25;
            y[0] = x[0] + x[n - 1];
        }
    """, "clip(y)/(x)", "clip_b: stack: 4 * n bytes pushed per call"),
])
def test_stack_report(tmp_path, source, head, expected):
    r = adgen(tmp_path, source, "--head", head, "--size", "x=n", "--size", "y=1",
              "--stack-report", "-o", "b.c")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(expected)
    if source is FIXED:     # constant bounds: a number
        assert r.stdout.split("stack: ")[1].split()[0].isdigit()


def test_a_kept_state_whose_length_divides_is_bounded(tmp_path):
    # joint mode keeps h, of n / 2 elements: at most n / 2 + 1 / 2 of them
    r = adgen(tmp_path, """
        #include <math.h>
        static void smooth(int m, double *h)
        {
            int i;
            for (i = 0; i < m; i++)
                h[i] = sin(h[i]) + 0.5 * h[i];
        }
        void f(int n, double *h, double *y)
        {
            int k;
            for (k = 0; k < 3; k++)
                smooth(n / 2, h);
            y[0] = h[0] * h[0];
        }
    """, "--head", "f(y)/(h)", "--size", "h=n/2", "--size", "y=1", "--explain", "-o", "b.c")
    assert r.returncode == 0, r.stderr
    assert "call of smooth: joint mode (the callee records an unbounded number of bytes, " \
           "the state 4 * n + 4 bytes)" in r.stderr + r.stdout


GLOBAL_SIZE = """
    #include <math.h>
    int n;              /* set by init, before the head is called */
    double w[64];
    void init(int m)
    {
        n = m;
        for (int i = 0; i < n; i++)
            w[i] = 1.0 + 0.5 * i;
    }
    void cost(const double *x, double *J)
    {
        *J = 0.0;
        for (int i = 0; i < n; i++)
            *J = sin(*J + w[i] * x[i] * x[i]);
    }
"""

MODULE_SIZE = Path(__file__).resolve().parent.parent / "testsuite" / "fortran" / \
    "module_size.f90"


@pytest.mark.parametrize("source, head, count, report", [
    (GLOBAL_SIZE, "cost(J)/(x)", "count = n > 0 ? n : 0;",
     "cost_b: stack: 8 * n + 40 bytes pushed per call"),
    (MODULE_SIZE, "cost(J)/(x)", "count = __sizes_MOD_n > 0 ? __sizes_MOD_n : 0;",
     "cost_b: stack: 8 * n + 40 bytes pushed per call"),
    (MODULE_SIZE, "smooth(s)/(y)", "count = __sizes_MOD_n - 1 > 0 ? __sizes_MOD_n - 1 : 0;",
     "smooth_b: stack: at most 24 * n bytes pushed per call"),
], ids=["c-global", "fortran-module", "fortran-callee"])
def test_a_global_size_is_not_stored(tmp_path, source, head, count, report):
    """A loop bound that is a global integer (a C global, a Fortran module variable) that
    the head and what it calls leave as they found it is one value for the whole call: the
    backward sweep computes the trip count again (it was stored), and --stack-report
    bounds the stack by it, through a callee's loops too (it was 'unbounded')."""
    if isinstance(source, Path):
        args = [str(source)]
    else:
        (tmp_path / "prog.c").write_text(textwrap.dedent(source))
        args = ["prog.c"]
    run = [sys.executable, "-m", "adgen", "-b"] + args + ["--head", head]
    r = subprocess.run(run + ["-o", "b.c"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    code = (tmp_path / "b.c").read_text()
    assert count in code and "adgen_push(&count" not in code, code
    r = subprocess.run(run + ["--stack-report", "--no-output"], capture_output=True, text=True,
                       cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith(report), r.stdout + r.stderr
