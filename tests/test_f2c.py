"""C that f2c translated from Fortran, as a user has it: `#include "f2c.h"`, WRITE and STOP
statements calling libf2c. Fortran written for this project is translated by the real f2c,
adgen differentiates the translation (reading its own f2c.h), and the derivative code is
compiled with -Werror, linked with the real libf2c and checked against central differences
and by the dot-product test; the WRITE statements print from the derivative's forward
sweep as from the primal. A READ in the differentiated routine is refused."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WARN = ["-std=c99", "-Wall", "-Wextra", "-Werror"]

FORTRAN = """\
      SUBROUTINE GETN(N)
      INTEGER N
      READ (*,*) N
      END

      SUBROUTINE CHAIN(N, X, F)
      INTEGER N, I
      DOUBLE PRECISION X(N), F, T
      F = 0.0D0
      DO 10 I = 1, N - 1
         T = X(I+1) - X(I)**2
         F = F + 10.0D0*T**2 + (1.0D0 - X(I))**2
         IF (T .GT. -5.0D0) THEN
            WRITE (6, 100) I, T
         END IF
   10 CONTINUE
      WRITE (*,*) 'CHAIN', N, F
      PRINT *, 'SUM OF SQUARES', SQRT(F)
      IF (F .LT. 0.0D0) THEN
         STOP 'NEGATIVE'
      END IF
  100 FORMAT (1X, 'TERM ', I3, D15.7)
      END

      SUBROUTINE SCALED(N, X, F)
      INTEGER N, I
      DOUBLE PRECISION X(N), F, S
      READ (*,*) S
      F = 0.0D0
      DO 20 I = 1, N
         F = F + S*X(I)**2
   20 CONTINUE
      END
"""

DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "f2c.h"

int chain_(integer *n, doublereal *x, doublereal *f);
void chain__b(integer *n, doublereal *x, doublereal *xb, doublereal *f, doublereal *fb);
void chain__d(integer *n, doublereal *x, doublereal *xd, doublereal *f, doublereal *fd);

int main(void)
{
    integer n = 5;
    double x[5] = {0.9, 1.2, 0.7, 1.1, 0.95}, xb[5], xd[5], f, fb, fd, worst = 0.0;
    double dot_t = 0.0, dot_b = 0.0;
    int i;
    for (i = 0; i < n; i++) {       /* central differences against the adjoint */
        double h = 1e-6, keep = x[i], fp, fm, rel;
        x[i] = keep + h; chain_(&n, x, &fp);
        x[i] = keep - h; chain_(&n, x, &fm);
        x[i] = keep;
        fb = 1.0;
        chain__b(&n, x, xb, &f, &fb);
        rel = fabs(xb[i] - (fp - fm) / (2 * h)) / fmax(1.0, fabs(xb[i]));
        if (rel > worst) worst = rel;
    }
    for (i = 0; i < n; i++) xd[i] = 0.1 * (i + 1) - 0.2;       /* tangent against adjoint */
    chain__d(&n, x, xd, &f, &fd);
    fb = 1.0;
    chain__b(&n, x, xb, &f, &fb);
    for (i = 0; i < n; i++) dot_b += xb[i] * xd[i];
    dot_t = fd;
    fflush(stdout);
    fprintf(stderr, "fd %.3e dot %.3e\n", worst, fabs(dot_t - dot_b) / fabs(dot_t));
    return worst < 1e-6 && fabs(dot_t - dot_b) <= 1e-12 * fabs(dot_t) ? 0 : 1;
}
"""


def run(cmd, cwd, **kw):
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True,
                          timeout=300, **kw)


@pytest.fixture(scope="module")
def translated(tmp_path_factory):
    missing = harness.f2c_missing()
    if missing is not None:
        pytest.skip(f"needs f2c and libf2c (Debian's f2c and libf2c2-dev, which `make test` "
                    f"installs where it can): {missing}")
    d = tmp_path_factory.mktemp("f2c")
    (d / "model.f").write_text(FORTRAN)
    proc = run(["f2c", "-A", "model.f"], d)
    assert proc.returncode == 0, proc.stderr
    return d


def adgen(args, cwd):
    return run([sys.executable, "-m", "adgen", *args], cwd)


def test_derivatives_of_f2c_output_with_writes_link_with_libf2c(translated):
    d = translated
    for mode, out in (("--reverse", "model_b.c"), ("--forward", "model_d.c")):
        proc = adgen([mode, "model.c", "--head", "chain_(f)/(x)", "-o", out], d)
        assert proc.returncode == 0, proc.stderr
        text = (d / out).read_text()
        # f2c.h is not the output's: it defines the types and declares libf2c's routines
        assert "#include \"f2c.h\"" not in text and "typedef double doublereal;" in text
        assert re.search(r"^integer s_wsfe\(cilist \*", text, re.M), text
        proc = run(["gcc", *WARN, "-c", out], d)
        assert proc.returncode == 0, proc.stderr
    (d / "driver.c").write_text(DRIVER)
    for src in ("model.c", "driver.c"):
        proc = run(["gcc", "-std=c99", "-w", "-c", src], d)
        assert proc.returncode == 0, proc.stderr
    proc = run(["gcc", "driver.o", "model.o", "model_b.o", "model_d.o", "-lf2c", "-lm",
                "-o", "check"], d)
    assert proc.returncode == 0, proc.stderr
    proc = run(["./check"], d)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # every call prints: the primal's (10 of the differences), the adjoint's forward
    # sweeps (5 + 1) and the tangent's (1), each the same lines
    chain = [line for line in proc.stdout.splitlines() if "CHAIN" in line]
    assert len(chain) == 10 + 6 + 1, proc.stdout
    assert proc.stdout.count("SUM OF SQUARES") == 17 and "TERM" in proc.stdout


def test_read_statement_in_the_differentiated_routine_is_refused(translated):
    d = translated
    proc = adgen(["--reverse", "model.c", "--head", "scaled_(f)/(x)", "-o", "s_b.c"], d)
    assert proc.returncode == 1
    assert re.search(r"model\.c:\d+:\d+: error: 's_rsle' starts a Fortran READ statement",
                     proc.stderr), proc.stderr
    assert not (d / "s_b.c").exists()


def test_f2c_header_of_adgen_when_the_program_has_none(tmp_path):
    """Without f2c installed: adgen reads its own f2c.h, and the output compiles alone."""
    (tmp_path / "sq.c").write_text(
        '#include "f2c.h"\n'
        'static integer c__1 = 1;\n'
        'int sq_(integer *n, doublereal *x, doublereal *f)\n'
        '{\n'
        '    integer i__1, s_wsle(cilist *), do_lio(integer *, integer *, char *, ftnlen),\n'
        '        e_wsle(void);\n'
        '    static integer i__, c__5 = 5;\n'
        '    static cilist io___1 = { 0, 6, 0, 0, 0 };\n'
        '    --x;\n'
        '    *f = 0.;\n'
        '    i__1 = *n;\n'
        '    for (i__ = 1; i__ <= i__1; ++i__) *f += x[i__] * x[i__];\n'
        '    s_wsle(&io___1);\n'
        '    do_lio(&c__5, &c__1, (char *)&(*f), (ftnlen)sizeof(doublereal));\n'
        '    e_wsle();\n'
        '    return 0;\n'
        '}\n')
    for mode in ("--reverse", "--forward", "--forward --vector"):
        proc = adgen([*mode.split(), "sq.c", "--head", "sq_(f)/(x)", "-o", "out.c"], tmp_path)
        assert proc.returncode == 0, proc.stderr
        proc = run(["gcc", *WARN, "-c", "out.c"], tmp_path)
        assert proc.returncode == 0, (mode, proc.stderr)
