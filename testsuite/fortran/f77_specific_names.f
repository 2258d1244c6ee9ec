C adgen-test
C head: spec(y)/(x)
C arg n: integer = 3
C arg x: real(8)[n] = uniform(0.5, 1.5)
C arg y: real(8)[n]
C
C The specific intrinsic names of FORTRAN 77 codes (DEXP, DSQRT, DABS, DLOG, ALOG,
C DLOG10, DSIN, DCOS, DTAN, DATAN, DATAN2, DTANH, DSINH, DCOSH, DFLOAT, IABS), which
C were refused: each is its generic intrinsic.
      SUBROUTINE SPEC(N, X, Y)
      INTEGER N, I, K
      DOUBLE PRECISION X(N), Y(N), T
      REAL S
      DO 10 I = 1, N
         K = IABS(2 - I)
         T = DEXP(-X(I)) + DSQRT(X(I)) * DABS(X(I) - 1.2D0)
         T = T + DLOG(X(I)) + DLOG10(X(I)) + DSIN(X(I)) * DCOS(X(I))
         T = T + DTAN(0.3D0 * X(I)) + DATAN(X(I)) + DATAN2(X(I), 2.0D0)
         T = T + DTANH(X(I)) + DSINH(0.5D0 * X(I)) - DCOSH(0.2D0 * X(I))
         S = ALOG(2.0) * REAL(K)
         Y(I) = T * DFLOAT(I) + S * X(I)
   10 CONTINUE
      RETURN
      END
