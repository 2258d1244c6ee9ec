C adgen-test
C head: s(y)/(x)
C arg x: real*8 = 0.7
C arg y: real*8
C
C COMMON arrays dimensioned by expressions of a PARAMETER and with a
C negative lower bound, c(n+1) and e(-2:2), the classic F77 shape: the
C block is a struct of arrays of integer constant lengths.
      SUBROUTINE S(X, Y)
      INTEGER N
      PARAMETER (N = 3)
      DOUBLE PRECISION X, Y, C(N+1), E(-2:2)
      COMMON /BLK/ C, E
      INTEGER I
      DO I = 1, N + 1
        C(I) = X * I
      END DO
      DO I = -2, 2
        E(I) = X * X * I
      END DO
      CALL T(Y)
      END
      SUBROUTINE T(Y)
      INTEGER N
      PARAMETER (N = 3)
      DOUBLE PRECISION Y, C(N+1), E(-N+1:N-1)
      COMMON /BLK/ C, E
      Y = C(1) * C(N+1) + E(-2) * E(2) + E(1) * C(2)
      END
