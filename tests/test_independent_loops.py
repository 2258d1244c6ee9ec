"""Loops under `#pragma adgen independent` (Fortran `!$AD II-LOOP`): each iteration is
reversed right after it runs, so the stack holds one iteration (docs/directives.md). The
derivatives are checked by the test programs testsuite/c/independent_points.c,
testsuite/c/independent_in_callee.c and testsuite/fortran/independent_points.f90 (finite
differences and the dot-product test, each stack kind); here, what adgen stores and says."""
from pathlib import Path

from test_fortran_directives import adgen, write

ROOT = Path(__file__).resolve().parent.parent
C_SUITE = ROOT / "testsuite" / "c"

POINTS = "independent_points(total)/(means scale w)"


def stack_line(proc):
    return next(line for line in proc.stdout.splitlines() + proc.stderr.splitlines()
                if ": stack:" in line)


def test_the_stack_holds_one_iteration(tmp_path):
    """With the directive, what the adjoint stores does not grow with the number of
    iterations n; without it (or with --store-all, the store-everything baseline) it
    does."""
    src = C_SUITE / "independent_points.c"
    proc, code = adgen(src, tmp_path, POINTS, "--stack-report")
    assert proc.returncode == 0, proc.stderr
    report = stack_line(proc)
    assert "d * k" in report and " n" not in report and "n *" not in report, report
    assert "gathered for a unit adjoint of its sum" in code
    plain = write(tmp_path, "plain.c", src.read_text().replace("#pragma adgen independent",
                                                               ""))
    proc, _ = adgen(plain, tmp_path, POINTS, "--stack-report")
    assert proc.returncode == 0, proc.stderr
    assert " n" in stack_line(proc)
    proc, code = adgen(src, tmp_path, POINTS, "--stack-report", "--store-all")
    assert proc.returncode == 0, proc.stderr
    assert "gathered" not in code


def test_explained(tmp_path):
    proc, _ = adgen(C_SUITE / "independent_points.c", tmp_path, POINTS, "--explain")
    assert proc.returncode == 0, proc.stderr
    said = proc.stdout + proc.stderr
    assert "independent_points.c:69: independent_points: iterations: reversed one at a " \
        "time" in said
    # the value a scratch scalar's first setting in an iteration overwrites is the
    # iteration before's, which nothing reads
    assert "independent_points.c:75: independent_points: log_sum_exp_result: not stored " \
        "(set first in each iteration of a loop reversed one iteration at a time)" in said
    # a call's record lives for one iteration: no reason to run the callee twice
    assert "independent_points.c:75: independent_points: call of log_sum_exp: split mode " \
        "(in a loop reversed one iteration at a time" in said


def test_loops_of_another_shape_are_reversed_together_with_a_warning(tmp_path):
    src = C_SUITE / "independent_in_callee.c"
    proc, code = adgen(src, tmp_path, "independent_in_callee(out)/(p u)")
    assert proc.returncode == 0, proc.stderr
    assert f"{src}:37:9: warning: independent: the loop's iterations are reversed " \
        "together, not one at a time: it writes through 'u', which is not a local of " \
        "'independent_in_callee'" in proc.stderr
    assert f"{src}:40:9: warning: independent: the loop's iterations are reversed " \
        "together, not one at a time: an iteration may read 'carried' before setting it" \
        in proc.stderr
    assert code.count("gathered for a unit adjoint of its sum") == 1     # energy's loop


SHAPES = """\
#include <stdlib.h>
double two_sums(int n, const double *x, double *y)
{
    double a = 0.0, b = 0.0, t;
    double *scratch = malloc(sizeof(double));
    int i;
#pragma adgen independent
    for (i = 0; i < n; i++) {
        t = x[i] * x[i];
        %s
    }
    free(scratch);
    return a * b + y[0];
}
"""


def test_shapes_refused_with_the_reason(tmp_path):
    cases = {
        "a += t; b += t * t;": "it adds into more than one active sum ('a', 'b')",
        "a += t; y[i] = t;": "it writes through 'y', which is not a local of 'two_sums'",
        "scratch[0] = t; a += scratch[0];": None,
        "a += t; b = t;": "'b', which the loop sets, is read outside it",
        "a += t; if (t > 1) break;": "it is not a counted loop",
        "a += t; if (t > 1) continue; a += t;": None,     # (structured: an if)
    }
    for body, reason in cases.items():
        src = write(tmp_path, "shapes.c", SHAPES % body)
        proc, code = adgen(src, tmp_path, "two_sums(two_sums)/(x)")
        assert proc.returncode == 0, (body, proc.stderr)
        if reason is None:
            assert "warning" not in proc.stderr, (body, proc.stderr)
            assert "gathered" in code, body
        else:
            assert f"{src}:7:9: warning: independent: " in proc.stderr, (body, proc.stderr)
            assert reason in proc.stderr, (body, proc.stderr)
            assert "gathered" not in code, body


def test_misplaced_directive_is_an_error(tmp_path):
    src = write(tmp_path, "e.c", "double f(double x)\n{\n    double s = x;\n"
                "#pragma adgen independent\n    return s;\n}\n")
    proc, _ = adgen(src, tmp_path, "f(f)/(x)")
    assert proc.returncode == 1
    assert "independent: the directive must stand just before a" in proc.stderr, proc.stderr


def test_fortran_ii_loop(tmp_path):
    src = ROOT / "testsuite" / "fortran" / "independent_points.f90"
    proc, code = adgen(src, tmp_path, "fit_cost(cost)/(c w)", "--stack-report")
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr
    assert "gathered for a unit adjoint of its sum" in code
    assert "n" not in stack_line(proc).split("stack:")[1], stack_line(proc)
    bad = write(tmp_path, "bad.f90", "subroutine s(n, x, y)\n  integer n\n  real(8) x, y\n"
                "  !$AD II-LOOP\n  y = x\nend subroutine\n")
    proc, _ = adgen(bad, tmp_path, "s(y)/(x)")
    assert proc.returncode == 1
    assert f"{bad}:4:3: error: II-LOOP: the directive must stand just before a DO loop" \
        in proc.stderr, proc.stderr
