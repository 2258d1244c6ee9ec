C adgen-test
C head: roots(y)/(xr xi)
C arg n: integer = 6
C arg xr: double precision[n] = {0.8d0, -0.6d0, -1.5d0, 0.3d0, 2.0d0, -0.2d0}
C arg xi: double precision[n] = {0.5d0, 0.7d0, -0.4d0, -1.1d0, 1d-3, -2d-3}
C arg y: double precision[n]
C
C Square roots of COMPLEX*16 values, by the generic name and the specific
C CDSQRT of LINPACK and EISPACK, in every quadrant and close to the negative
C real axis (the branch cut, where the imaginary part changes sign): the
C principal root, computed without cancellation on either side. Before:
C "sqrt of a COMPLEX value is not supported".
      SUBROUTINE ROOTS(N, XR, XI, Y)
      INTEGER N, I
      DOUBLE PRECISION XR(N), XI(N), Y(N)
      COMPLEX*16 Z, W
      DO 10 I = 1, N
         Z = DCMPLX(XR(I), XI(I))
         W = CDSQRT(Z) + 0.5D0 * SQRT(Z * Z + (1.0D0, 0.5D0))
         Y(I) = DREAL(W) * (1.0D0 + DIMAG(W)) + DIMAG(SQRT(Z))
   10 CONTINUE
      END
