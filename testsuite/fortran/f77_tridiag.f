C adgen-test
C head: implicit_diffusion(u)/(u d)
C arg n: integer = 6
C arg m: integer = 3
C arg u: double precision[n, m] = uniform(0, 1)
C arg d: double precision[m] = uniform(0.5, 1.5)
C
C F77: one implicit (backward Euler) diffusion step for each of the M columns of
C U(N, M), solved by the Thomas algorithm. Fixed form, implicit typing (I-N
C integer), PARAMETER, DOUBLE PRECISION, a COMMON block, labelled DO loops, and a
C column passed as U(1, J) (sequence association) to a routine declaring it X(N),
C and a dead store to an implicitly typed local (R), as old code has.
      SUBROUTINE IMPLICIT_DIFFUSION(N, M, U, D)
      INTEGER N, M
      DOUBLE PRECISION U(N, M), D(M)
      PARAMETER (NMAX = 50)
      DOUBLE PRECISION A(NMAX), B(NMAX), C(NMAX), DT, DX
      COMMON /GRID/ DT, DX
      DT = 0.01D0
      DX = 1.0D0 / (N + 1)
      DO 20 J = 1, M
         R = 0.0
         DO 10 I = 1, N
            A(I) = -D(J) * DT / DX**2
            B(I) = 1.0D0 + 2.0D0 * D(J) * DT / DX**2
            C(I) = -D(J) * DT / DX**2
   10    CONTINUE
         CALL THOMAS(N, A, B, C, U(1, J))
   20 CONTINUE
      END

C     Solves the tridiagonal system (A, B, C) X = X in place.
      SUBROUTINE THOMAS(N, A, B, C, X)
      INTEGER N
      DOUBLE PRECISION A(N), B(N), C(N), X(N)
      DOUBLE PRECISION CP(50), W
      CP(1) = C(1) / B(1)
      X(1) = X(1) / B(1)
      DO 30 I = 2, N
         W = B(I) - A(I) * CP(I-1)
         CP(I) = C(I) / W
         X(I) = (X(I) - A(I) * X(I-1)) / W
   30 CONTINUE
      DO 40 I = N - 1, 1, -1
         X(I) = X(I) - CP(I) * X(I+1)
   40 CONTINUE
      RETURN
      END
