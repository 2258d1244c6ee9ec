C adgen-test
C head: top(f)/(a x)
C arg a: real*8 = 1.7d0
C arg x: real*8 = 0.8d0
C arg f: real*8 = 0
C
C A COMMON block of scalars whose types are declared after it: U is the
C block's double precision member in both routines (not a local of EVAL,
C not a default REAL in the block's layout).
      SUBROUTINE SETU(A)
      DOUBLE PRECISION A
      COMMON /SPAR/ U, V
      DOUBLE PRECISION U, V
      U = A
      V = A * A
      END
      SUBROUTINE EVAL(X, F)
      DOUBLE PRECISION X, F
      COMMON /SPAR/ U, V
      DOUBLE PRECISION U, V
      F = U * X * X + V * X
      END
      SUBROUTINE TOP(A, X, F)
      DOUBLE PRECISION A, X, F
      CALL SETU(A)
      CALL EVAL(X, F)
      END
