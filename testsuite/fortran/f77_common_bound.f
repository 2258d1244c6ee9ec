C adgen-test
C head: f(y)/(x)
C arg x: real*8[9] = uniform(0.5, 1.5)
C arg y: real*8 = 0
C
C An explicit-shape dummy whose bound is a COMMON member that the routine
C changes: the bound is the member's value on entry (the output named a local
C 'n' it never declared when the block was read after the declarations).
      SUBROUTINE F(X, Y)
      DOUBLE PRECISION X(9), Y
      INTEGER N
      COMMON /S/ N
      N = 3
      CALL G(X, Y)
      END
      SUBROUTINE G(A, Y)
      COMMON /S/ N
      DOUBLE PRECISION A(N,N), Y
      N = N - 1
      Y = A(2,3)*A(3,2) + A(1,N+1)**2
      END
