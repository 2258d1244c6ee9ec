C adgen-test
C head: model(f)/(a x)
C arg n: integer = 6
C arg a: real*8[2] = [0.7d0, 1.3d0]
C arg x: real*8[n] = uniform(0.5, 2)
C arg f: real*8 = 0
C
C F77 style: a COMMON block names its members before their type and shape
C are declared (COMMON, then DOUBLE PRECISION and DIMENSION), as in many
C older codes. One routine fills the block, another reads it: the members
C are the block's storage (double precision, T of 20 elements) in both.
      SUBROUTINE SETPAR(A)
      DOUBLE PRECISION A(2)
      COMMON /PAR/ U, T, W
      DOUBLE PRECISION U, W
      DOUBLE PRECISION T
      DIMENSION T(20)
      U = A(1)
      W = A(2)
      DO 10 I = 1, 20
         T(I) = A(1) * I
   10 CONTINUE
      END
      SUBROUTINE EVAL(N, X, F)
      INTEGER N, I
      DOUBLE PRECISION X(N), F
      COMMON /PAR/ U, T(20), W
      DOUBLE PRECISION U, T, W
      F = 0.0D0
      DO 20 I = 1, N
         F = F + U * X(I)**2 + T(I) * W * X(I)
   20 CONTINUE
      END
      SUBROUTINE MODEL(N, A, X, F)
      INTEGER N
      DOUBLE PRECISION A(2), X(N), F
      CALL SETPAR(A)
      CALL EVAL(N, X, F)
      END
