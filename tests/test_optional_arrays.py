"""An optional input array: a pointer the caller may pass as NULL, every read of it under a
test of the pointer (`b ? b[i] : 0.0`, `b && b[i] > 0`). When its length is not known,
the adjoint zeroes its gradient element by element as the forward sweep reads it; that
zeroing must be under the same test as the read, or the adjoint writes through the NULL
gradient pointer the caller passes beside the NULL input. The derivatives with the array
given are checked by the harness (testsuite/c/optional_input_array.c)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "testsuite" / "c" / "optional_input_array.c"

DRIVER = r"""
#include <math.h>
#include <stdio.h>
void blend_b(int n, const double *a, double *ab, const double *b, double *bb,
             const double *s, double *sb, double *c, double *cb);
int main(void)
{
    double a[3] = {1.0, 2.0, 3.0}, s[3] = {0.25, 0.5, 0.75}, c[3];
    double ab[3], sb[3], cb[3] = {1.0, 1.0, 1.0};
    int i, bad = 0;
    blend_b(3, a, ab, NULL, NULL, s, sb, c, cb);
    for (i = 0; i < 3; i++) {
        /* c[i] = s[i] * a[i] + (1 - s[i]) * 0 (+ a[i] > 1 ? ... : 0, no b) */
        if (fabs(ab[i] - s[i]) > 1e-15 || fabs(sb[i] - a[i]) > 1e-15)
            bad = 1;
    }
    printf("%s\n", bad ? "wrong" : "ok");
    return bad;
}
"""


def test_adjoint_with_the_optional_array_null(tmp_path):
    out = tmp_path / "blend_b.c"
    subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(PROGRAM), "--head",
                    "blend(c)/(a b s)", "-o", str(out)], check=True)
    (tmp_path / "driver.c").write_text(DRIVER)
    exe = tmp_path / "run"
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", str(PROGRAM),
                    str(out), str(tmp_path / "driver.c"), "-lm", "-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "ok", \
        (run.returncode, run.stdout, out.read_text())
