C adgen-test
C head: f(y)/(x)
C expect-error: the blank COMMON is laid out here as (p, q), and as (a, n)
C expect-error-line: 18
C
C Must be refused: units may give the blank COMMON different lengths, but here the
C second member is an INTEGER in one unit and a DOUBLE PRECISION in the other.
      SUBROUTINE F(X, Y)
      DOUBLE PRECISION X, Y, A
      INTEGER N
      COMMON // A, N
      A = X
      N = 3
      CALL G(Y)
      END
      SUBROUTINE G(Y)
      DOUBLE PRECISION Y, P, Q
      COMMON // P, Q
      Y = P * Q
      END
