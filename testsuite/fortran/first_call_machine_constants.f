C adgen-test
C head: wrap(y)/(x)
C arg x: double precision = 0.45
C arg y: double precision
C
C SLATEC's first-call initialization: SAVEd values computed once, on the
C first call, from functions of constants only (a machine constant, the
C number of terms of a series to keep from its DATA coefficients), the
C flag FIRST cleared by the statement after the IF block. The output's
C copies are set on its own first call to the same values, so they carry
C no state the derivatives could see. Before: "the SAVEd variable 'nterm'
C of 'series' keeps its value from one call of 'wrap' to the next".
      SUBROUTINE WRAP(X, Y)
      DOUBLE PRECISION X, Y, SERIES
      Y = SERIES(X)
      END
      DOUBLE PRECISION FUNCTION SERIES(X)
      DOUBLE PRECISION X, CS(6), XMAX, EPSI, MACH, CSEVAL
      INTEGER NTERM, KEEPN
      LOGICAL FIRST
      SAVE CS, XMAX, NTERM, FIRST
      DATA CS / 1.0D0, 0.5D0, 0.25D0, 1.0D-3, 1.0D-9, 1.0D-14 /
      DATA FIRST /.TRUE./
      IF (FIRST) THEN
         NTERM = KEEPN(CS, 6, 0.1D0 * MACH(3))
         XMAX = SQRT(MACH(2))
      ENDIF
      FIRST = .FALSE.
      SERIES = CSEVAL(MIN(X, XMAX), CS, NTERM)
      END
      INTEGER FUNCTION KEEPN(C, N, ETA)
      INTEGER N, I
      DOUBLE PRECISION C(N), ETA, ERR
      ERR = 0.0D0
      DO 10 I = N, 1, -1
         ERR = ERR + ABS(C(I))
         IF (ERR .GT. ETA) GO TO 20
   10 CONTINUE
   20 KEEPN = I
      END
      DOUBLE PRECISION FUNCTION MACH(I)
      INTEGER I
      MACH = EPSILON(1.0D0)
      IF (I .EQ. 2) MACH = HUGE(1.0D0)
      END
      DOUBLE PRECISION FUNCTION CSEVAL(X, C, N)
      INTEGER N, I
      DOUBLE PRECISION X, C(N)
      CSEVAL = 0.0D0
      DO 10 I = N, 1, -1
         CSEVAL = CSEVAL * X + C(I)
   10 CONTINUE
      END
