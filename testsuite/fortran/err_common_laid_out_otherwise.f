C adgen-test
C head: f(y)/(x)
C expect-error: COMMON /b/ is laid out here as (p(3), q(1)), and as (a(2), c(2))
C expect-error-line: 20
C
C Must be refused: a COMMON block whose storage one unit names as A(2), C(2)
C and another as P(3), Q(1). Fields are matched by position, so Q(1) would be
C read as C(1) where the storage is C(2).
      SUBROUTINE F(X, Y)
      DOUBLE PRECISION X, Y, A, C
      COMMON /B/ A(2), C(2)
      A(1) = X
      A(2) = X * X
      C(1) = 3.0D0 * X
      C(2) = SIN(X)
      CALL G(Y)
      END
      SUBROUTINE G(Y)
      DOUBLE PRECISION Y, P, Q
      COMMON /B/ P(3), Q(1)
      Y = P(1) + 10.0D0 * P(2) + 100.0D0 * P(3)**2 + Q(1)**3
      END
