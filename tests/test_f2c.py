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

      SUBROUTINE NAMED(N, X, F, NAME)
      INTEGER N, I, J
      DOUBLE PRECISION X(N), F, A(8,8), S, W(3)
      CHARACTER*8 NAME
      CHARACTER*4 TAG
      COMMON /COUNTS/ NCALLS
      INTEGER NCALLS
      EXTERNAL PEN
      DOUBLE PRECISION PEN
      DATA W /0.5D0, 0.25D0, 0.125D0/
      NCALLS = NCALLS + 1
      NAME = 'QUADRAT'
      TAG = NAME(1:4)
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I,J) = 1.0D0/DBLE(I+J-1)
   10    CONTINUE
   20 CONTINUE
      F = 0.0D0
      DO 40 I = 1, N
         S = 0.0D0
         DO 30 J = 1, N
            S = S + A(I,J)*X(J)
   30    CONTINUE
         F = F + X(I)*S
   40 CONTINUE
      F = F + PEN(N, X) + W(1)*X(1)**3
      IF (TAG .EQ. 'QUAD') F = F*MAX(1.0D0, DBLE(N)/2)
      IF (NAME .NE. 'QUADRAT') F = 0.0D0
      F = F + SIGN(ABS(X(1))**1.5D0, X(2)) + MOD(X(2), 2.0D0)
      WRITE (6, 50) (X(I), I = 1, N)
   50 FORMAT (1X, 'X =', 5D12.4)
      END

      SUBROUTINE MISC(N, X, F)
      INTEGER N, I, K, IDX
      DOUBLE PRECISION X(N), F, T, U, V, SQ, Q
      REAL R
      PARAMETER (K = 3)
      DOUBLE PRECISION WORK(10)
      SAVE WORK
      SQ(Q) = Q*Q + 1.0D0
      F = 0.0D0
      I = 1
    5 IF (I .GT. N) GO TO 15
         WORK(I) = X(I)
         I = I + 1
         GO TO 5
   15 CONTINUE
      DO 10 I = 1, N
         T = DMAX1(WORK(I), 0.5D0) + DMIN1(WORK(I), 1.0D0, 2.0D0)
         U = DATAN2(X(I), 1.0D0 + DBLE(I)) + DLOG10(1.0D0 + X(I)**2)
         IF (T - 1.0D0) 20, 30, 40
   20    V = T*U
         GO TO 50
   30    V = T
         GO TO 50
   40    V = SQ(T) + U
   50    CONTINUE
         IDX = MOD(I, K) + 1
         GO TO (60, 70, 80), IDX
   60    F = F + V
         GO TO 10
   70    F = F + 2.0D0*V
         GO TO 10
   80    R = SNGL(V)
         F = F + DBLE(R)*0.0D0 + V/3.0D0
     *        + DSIGN(1.0D0, X(I))*DABS(X(I))
   10 CONTINUE
      F = F + DBLE(NINT(F))*0.0D0 + DEXP(-F*F*1.0D-4)
     *      + DSQRT(F*F + 1.0D0)
      RETURN
      END

      SUBROUTINE LUSOLV(N, X, F)
      INTEGER N, IPVT(20), INFO, I, J
      DOUBLE PRECISION X(N), F, W(20,20), Y(20)
      DO 10 J = 1, N
         Y(J) = X(J)**2
         DO 5 I = 1, N
            W(I,J) = 1.0D0/DBLE(I+J)
    5    CONTINUE
         W(J,J) = W(J,J) + 2.0D0 + X(J)
   10 CONTINUE
      CALL GEFA(W, 20, N, IPVT, INFO)
      IF (INFO .NE. 0) STOP 'SINGULAR'
      CALL GESL(W, 20, N, IPVT, Y)
      F = 0.0D0
      DO 20 I = 1, N
         F = F + Y(I)**2
   20 CONTINUE
      END

      SUBROUTINE GEFA(A, LDA, N, IPVT, INFO)
      INTEGER LDA, N, IPVT(*), INFO, J, K, KP1, L, NM1
      DOUBLE PRECISION A(LDA,*), T
      INTEGER IAMAX
      INFO = 0
      NM1 = N - 1
      IF (NM1 .LT. 1) GO TO 70
      DO 60 K = 1, NM1
         KP1 = K + 1
         L = IAMAX(N-K+1, A(K,K), 1) + K - 1
         IPVT(K) = L
         IF (A(L,K) .EQ. 0.0D0) GO TO 40
            IF (L .EQ. K) GO TO 10
               T = A(L,K)
               A(L,K) = A(K,K)
               A(K,K) = T
   10       CONTINUE
            T = -1.0D0/A(K,K)
            CALL SCAL(N-K, T, A(K+1,K), 1)
            DO 30 J = KP1, N
               T = A(L,J)
               IF (L .EQ. K) GO TO 20
                  A(L,J) = A(K,J)
                  A(K,J) = T
   20          CONTINUE
               CALL AXPY(N-K, T, A(K+1,K), 1, A(K+1,J), 1)
   30       CONTINUE
         GO TO 50
   40    CONTINUE
            INFO = K
   50    CONTINUE
   60 CONTINUE
   70 CONTINUE
      IPVT(N) = N
      IF (A(N,N) .EQ. 0.0D0) INFO = N
      RETURN
      END

      SUBROUTINE GESL(A, LDA, N, IPVT, B)
      INTEGER LDA, N, IPVT(*), K, KB, L, NM1
      DOUBLE PRECISION A(LDA,*), B(*), T
      NM1 = N - 1
      DO 20 K = 1, NM1
         L = IPVT(K)
         T = B(L)
         IF (L .EQ. K) GO TO 10
            B(L) = B(K)
            B(K) = T
   10    CONTINUE
         CALL AXPY(N-K, T, A(K+1,K), 1, B(K+1), 1)
   20 CONTINUE
      DO 40 KB = 1, N
         K = N + 1 - KB
         B(K) = B(K)/A(K,K)
         T = -B(K)
         CALL AXPY(K-1, T, A(1,K), 1, B(1), 1)
   40 CONTINUE
      RETURN
      END

      INTEGER FUNCTION IAMAX(N, DX, INCX)
      INTEGER N, INCX, I
      DOUBLE PRECISION DX(*), DMAX
      IAMAX = 1
      DMAX = DABS(DX(1))
      DO 10 I = 2, N
         IF (DABS(DX(I)) .LE. DMAX) GO TO 10
         IAMAX = I
         DMAX = DABS(DX(I))
   10 CONTINUE
      RETURN
      END

      SUBROUTINE SCAL(N, DA, DX, INCX)
      INTEGER N, INCX, I
      DOUBLE PRECISION DA, DX(*)
      DO 10 I = 1, N
         DX(I) = DA*DX(I)
   10 CONTINUE
      END

      SUBROUTINE AXPY(N, DA, DX, INCX, DY, INCY)
      INTEGER N, INCX, INCY, I
      DOUBLE PRECISION DA, DX(*), DY(*)
      IF (N .LE. 0) RETURN
      DO 10 I = 1, N
         DY(I) = DY(I) + DA*DX(I)
   10 CONTINUE
      END

      SUBROUTINE SETUP(N, X)
      INTEGER N, I
      DOUBLE PRECISION X(N), W(50), S
      SAVE W
      DO 10 I = 1, N
         W(I) = 1.0D0 + 0.1D0*DBLE(I)
   10 CONTINUE
      RETURN
      ENTRY APPLY(N, X, S)
      S = 0.0D0
      DO 20 I = 1, N
         S = S + W(I)*X(I)**2
   20 CONTINUE
      RETURN
      END

      SUBROUTINE LOGDET(N, X, F, UPLO)
      CHARACTER UPLO
      INTEGER N, I, J, INFO
      DOUBLE PRECISION X(N), F, A(10,10)
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I,J) = 0.1D0*X(I)*X(J)
   10    CONTINUE
         A(J,J) = A(J,J) + 1.0D0 + X(J)**2
   20 CONTINUE
      CALL POTRF(UPLO, N, A, 10, INFO)
      IF (INFO .NE. 0) THEN
         F = 0.0D0
         RETURN
      END IF
      F = 0.0D0
      DO 30 I = 1, N
         F = F + 2.0D0*LOG(A(I,I))
   30 CONTINUE
      END

      SUBROUTINE POTRF(UPLO, N, A, LDA, INFO)
      CHARACTER UPLO
      INTEGER N, LDA, INFO, J, K
      DOUBLE PRECISION A(LDA,*), AJJ, S
      LOGICAL UPPER, LSAME
      EXTERNAL LSAME, XERBLA
      INFO = 0
      UPPER = LSAME(UPLO, 'U')
      IF (.NOT.UPPER .AND. .NOT.LSAME(UPLO, 'L')) THEN
         INFO = -1
      ELSE IF (N .LT. 0) THEN
         INFO = -2
      END IF
      IF (INFO .NE. 0) THEN
         CALL XERBLA('POTRF ', -INFO)
         RETURN
      END IF
      IF (UPPER) THEN
         DO 20 J = 1, N
            S = 0.0D0
            DO 10 K = 1, J - 1
               S = S + A(K,J)**2
   10       CONTINUE
            AJJ = A(J,J) - S
            IF (AJJ .LE. 0.0D0) THEN
               A(J,J) = AJJ
               INFO = J
               RETURN
            END IF
            AJJ = SQRT(AJJ)
            A(J,J) = AJJ
            DO 15 K = J + 1, N
               S = A(J,K)
               DO 12 I = 1, J - 1
                  S = S - A(I,J)*A(I,K)
   12          CONTINUE
               A(J,K) = S/AJJ
   15       CONTINUE
   20    CONTINUE
      ELSE
         DO 40 J = 1, N
            S = 0.0D0
            DO 30 K = 1, J - 1
               S = S + A(J,K)**2
   30       CONTINUE
            AJJ = A(J,J) - S
            IF (AJJ .LE. 0.0D0) THEN
               INFO = J
               RETURN
            END IF
            AJJ = SQRT(AJJ)
            A(J,J) = AJJ
            DO 35 K = J + 1, N
               S = A(K,J)
               DO 32 I = 1, J - 1
                  S = S - A(K,I)*A(J,I)
   32          CONTINUE
               A(K,J) = S/AJJ
   35       CONTINUE
   40    CONTINUE
      END IF
      END

      LOGICAL FUNCTION LSAME(CA, CB)
      CHARACTER CA, CB
      INTEGER INTA, INTB
      LSAME = CA .EQ. CB
      IF (LSAME) RETURN
      INTA = ICHAR(CA)
      INTB = ICHAR(CB)
      IF (INTA .GE. 97 .AND. INTA .LE. 122) INTA = INTA - 32
      IF (INTB .GE. 97 .AND. INTB .LE. 122) INTB = INTB - 32
      LSAME = INTA .EQ. INTB
      END

      SUBROUTINE XERBLA(SRNAME, INFO)
      CHARACTER*(*) SRNAME
      INTEGER INFO
      WRITE (*, 9999) SRNAME, INFO
      STOP
 9999 FORMAT (' ** On entry to ', A, ' parameter number ', I2,
     $      ' had an illegal value')
      END

      SUBROUTINE SGL(N, X, F)
      INTEGER N, I, J, K
      REAL X(N), F, T
      DOUBLE PRECISION D
      F = 0.0
      DO 10 I = 1, N
         J = NINT(X(I)*3.0)
         K = I**2 + ISIGN(2, J) + IDIM(I, 2) + MOD(I, 3)
         K = K + MAX0(I, 2)
         T = SIGN(X(I), -1.0) + DIM(X(I), 0.2) + AMOD(X(I), 0.7)
         T = T + AINT(X(I)*4.0)/4.0 + ANINT(X(I))
         T = T + ALOG10(1.0 + X(I)**2)
         T = T + ATAN2(X(I), 2.0) + TANH(X(I)) + X(I)**1.5
         T = T + X(I)**K
         D = DBLE(X(I))**2 + DPROD(X(I), X(I))
         F = F + T*REAL(K) + SNGL(D) + FLOAT(J)*0.0
         F = F + AMIN1(X(I), 0.5)
   10 CONTINUE
      END

      DOUBLE PRECISION FUNCTION PEN(N, X)
      INTEGER N, I
      DOUBLE PRECISION X(N)
      PEN = 0.0D0
      DO 10 I = 1, N
         PEN = PEN + 1.0D-3*(X(I) - 1.0D0)**4
   10 CONTINUE
      END
"""

# {call}: the routine's arguments after x and f (the adjoint's and the tangent's after
# theirs), {name}: its name
DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "f2c.h"

int {name}_(integer *n, doublereal *x, doublereal *f{params});
void {name}__b(integer *n, doublereal *x, doublereal *xb, doublereal *f, doublereal *fb{params});
void {name}__d(integer *n, doublereal *x, doublereal *xd, doublereal *f, doublereal *fd{params});

int main(void)
{{
    integer n = 5;
    double x[5] = {{0.9, 1.2, 0.7, 1.1, 0.95}}, xb[5], xd[5], f, fb, fd, worst = 0.0;
    double dot_t = 0.0, dot_b = 0.0;
    char text[8];
    int i;
    (void)text;
    for (i = 0; i < n; i++) {{      /* central differences against the adjoint */
        double h = 1e-6, keep = x[i], fp, fm, rel;
        x[i] = keep + h; {name}_(&n, x, &fp{call});
        x[i] = keep - h; {name}_(&n, x, &fm{call});
        x[i] = keep;
        fb = 1.0;
        {name}__b(&n, x, xb, &f, &fb{call});
        rel = fabs(xb[i] - (fp - fm) / (2 * h)) / fmax(1.0, fabs(xb[i]));
        if (rel > worst) worst = rel;
    }}
    for (i = 0; i < n; i++) xd[i] = 0.1 * (i + 1) - 0.2;       /* tangent against adjoint */
    {name}__d(&n, x, xd, &f, &fd{call});
    fb = 1.0;
    {name}__b(&n, x, xb, &f, &fb{call});
    for (i = 0; i < n; i++) dot_b += xb[i] * xd[i];
    dot_t = fd;
    fflush(stdout);
    fprintf(stderr, "fd %.3e dot %.3e\\n", worst, fabs(dot_t - dot_b) / fabs(dot_t));
    return worst < 1e-6 && fabs(dot_t - dot_b) <= 1e-12 * fabs(dot_t) ? 0 : 1;
}}
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


def build_and_check(d, name, params="", call=""):
    """The derivatives of routine name_ of model.c, compiled with -Werror, linked with the
    primal and libf2c, checked by the driver; its run's standard output."""
    head = f"{name}_(f)/(x)"
    for mode, out in (("--reverse", f"{name}_b.c"), ("--forward", f"{name}_d.c")):
        proc = adgen([mode, "model.c", "--head", head, "-o", out], d)
        assert proc.returncode == 0, proc.stderr
        text = (d / out).read_text()
        # f2c.h is not the output's: it defines the types and declares libf2c's routines
        assert "#include \"f2c.h\"" not in text and "typedef double doublereal;" in text
        proc = run(["gcc", *WARN, "-c", out], d)
        assert proc.returncode == 0, proc.stderr
    (d / f"{name}_driver.c").write_text(DRIVER.format(name=name, params=params, call=call))
    for src in ("model.c", f"{name}_driver.c"):
        proc = run(["gcc", "-std=c99", "-w", "-c", src], d)
        assert proc.returncode == 0, proc.stderr
    proc = run(["gcc", f"{name}_driver.o", "model.o", f"{name}_b.o", f"{name}_d.o", "-lf2c",
                "-lm", "-o", f"{name}_check"], d)
    assert proc.returncode == 0, proc.stderr
    proc = run([f"./{name}_check"], d)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_derivatives_of_f2c_output_with_writes_link_with_libf2c(translated):
    out = build_and_check(translated, "chain")
    assert re.search(r"^integer s_wsfe\(cilist \*", (translated / "chain_b.c").read_text(),
                     re.M)
    # every call prints: the primal's (10 of the differences), the adjoint's forward
    # sweeps (5 + 1) and the tangent's (1), each the same lines
    chain = [line for line in out.splitlines() if "CHAIN" in line]
    assert len(chain) == 10 + 6 + 1, out
    assert out.count("SUM OF SQUARES") == 17 and "TERM" in out


def test_character_data_common_blocks_and_implied_do_writes(translated):
    """CHARACTER assignment and comparison (s_copy, s_cmp: what they compute, in the
    output), a COMMON block, DATA, an EXTERNAL function, a WRITE of an implied DO."""
    out = build_and_check(translated, "named", params=", char *name, ftnlen name_len",
                          call=", text, (ftnlen)8")
    text = (translated / "named_b.c").read_text()
    assert "s_copy" not in text and "s_cmp" not in text and "adgen_str_cmp(" in text
    assert out.count("X =") == 10 + 6 + 1, out


def test_goto_branches_arithmetic_if_and_statement_functions(translated):
    """Classic control flow: a loop of IF ... GO TO, an arithmetic IF to three labels each
    setting V before L50 reads it, a computed GO TO, a statement function, intrinsics of
    both precisions. f2c declares every local static: V, set on every path before it is
    read, carries nothing between calls, so adgen makes it a local."""
    build_and_check(translated, "misc")
    text = (translated / "misc_b.c").read_text()
    assert not re.search(r"static doublereal .*\bv\b", text), text


def test_locals_passed_by_address_to_routines_that_set_them(translated):
    """LU factorization with partial pivoting and its solve, LINPACK style: the caller's
    INFO and pivots handed by address (`&info`) to a routine that sets them first. f2c
    declares them static; set on every path before they are read, through the call, they
    carry nothing between calls: adgen makes INFO a local."""
    build_and_check(translated, "lusolv")
    text = (translated / "lusolv_b.c").read_text()
    assert not re.search(r"static integer lusolv__info\b", text), text


def test_lapack_style_character_options_and_error_handler(translated):
    """A Cholesky factorization in LAPACK's style: the triangle chosen by a CHARACTER
    argument compared by a LOGICAL function (`lsame_` in the right operand of &&), INFO,
    an error handler that writes and stops (not reached); both triangles."""
    for uplo in ("U", "l"):
        build_and_check(translated, "logdet", params=", char *uplo, ftnlen uplo_len",
                        call=f', "{uplo}", (ftnlen)1')


SINGLE_DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include "f2c.h"

int sgl_(integer *n, real *x, real *f);
void sgl__b(integer *n, real *x, real *xb, real *f, real *fb);
void sgl__d(integer *n, real *x, real *xd, real *f, real *fd);

int main(void)
{
    integer n = 6;
    real x[6], xb[6], xd[6], f, g, fb, fd;
    double dot_b = 0.0;
    int i, k, differ = 0;
    for (k = 0; k < 20; k++) {      /* the primal's value, bit for bit, at 20 points (x > 0:
                                       REAL powers of negative numbers are NaN) */
        for (i = 0; i < n; i++) x[i] = (real)(0.37 * (i + 1) + 0.11 * k + 0.05);
        sgl_(&n, x, &f);
        fb = 1.0f;
        sgl__b(&n, x, xb, &g, &fb);
        differ += f != g;
        for (i = 0; i < n; i++) xd[i] = (real)(0.1 * (i + 1) - 0.25);
        sgl__d(&n, x, xd, &g, &fd);
        differ += f != g;
        for (dot_b = 0.0, i = 0; i < n; i++) dot_b += (double)xb[i] * xd[i];
        if (fabs(dot_b - fd) > 1e-4 * fabs(fd) + 1e-6) {
            printf("dot %d: %g %g\n", k, dot_b, (double)fd);
            return 1;
        }
    }
    printf("differ %d\n", differ);
    return differ != 0;
}
"""


def test_single_precision_intrinsics_as_libf2c_computes_them(translated):
    """REAL code: NINT, ISIGN, IDIM, SIGN, DIM, AMOD, AINT, ANINT, ALOG10, DPROD and REAL
    powers go through libf2c's r_, i_ and pow_ routines. The derivative code computes
    them itself (pow_ii, integers only, stays a call): the value it computes is the
    primal's bit for bit at every point tried, and its tangent and adjoint agree."""
    d = translated
    for mode, out in (("--reverse", "sgl_b.c"), ("--forward", "sgl_d.c")):
        proc = adgen([mode, "model.c", "--head", "sgl_(f)/(x)", "-o", out], d)
        assert proc.returncode == 0, proc.stderr
        text = (d / out).read_text()
        assert not re.search(r"\b(r_mod|r_dim|r_int|r_nint|i_nint|i_sign)\(", text), text
        proc = run(["gcc", *WARN, "-c", out], d)
        assert proc.returncode == 0, proc.stderr
    (d / "sgl_driver.c").write_text(SINGLE_DRIVER)
    for src in ("model.c", "sgl_driver.c"):
        proc = run(["gcc", "-std=c99", "-w", "-c", src], d)
        assert proc.returncode == 0, proc.stderr
    proc = run(["gcc", "sgl_driver.o", "model.o", "sgl_b.o", "sgl_d.o", "-lf2c", "-lm",
                "-o", "sgl_check"], d)
    assert proc.returncode == 0, proc.stderr
    proc = run(["./sgl_check"], d)
    assert proc.returncode == 0 and "differ 0" in proc.stdout, proc.stdout + proc.stderr


def test_entry_state_the_program_sets_is_refused(translated):
    """SETUP fills SAVEd weights, its ENTRY APPLY reads them: f2c makes both one function
    with a static local array. The output's copy of the array would never be filled by
    the program's calls of SETUP (a derivative of zero): refused, naming both."""
    proc = adgen(["--reverse", "model.c", "--head", "apply_(s)/(x)", "-o", "a_b.c"],
                 translated)
    assert proc.returncode == 1, proc.stderr
    assert re.search(r"error: the static local 'w' of 'setup_0_' is set by 'setup_0_' "
                     r"\(called from 'setup_'\)", proc.stderr), proc.stderr


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
