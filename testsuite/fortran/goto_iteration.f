C adgen-test
C head: orbit_solve(e u)/(am ecc f)
C arg n: integer = 5
C arg am: double precision[n] = uniform(0.3, 2.5)
C arg ecc: double precision = 0.3
C arg f: double precision[n] = uniform(-1, 1)
C arg e: double precision[n]
C arg u: double precision[n]
C
C Iterations written with backward GOTOs and convergence tests, as in F77 code:
C Newton's method for Kepler's equation E - ECC SIN(E) = AM, one solve per element
C inside a labelled DO loop (10 CONTINUE ... IF (...) GOTO 10), and Gauss-Seidel
C sweeps for a diagonally dominant tridiagonal system whose outer iteration is a
C backward GOTO around a labelled DO loop, leaving early with a forward GOTO when the
C system is already solved.
      SUBROUTINE ORBIT_SOLVE(N, AM, ECC, F, E, U)
      INTEGER N, I, IT, ITER
      DOUBLE PRECISION AM(N), ECC, F(N), E(N), U(N)
      DOUBLE PRECISION DE, RES, UNEW
      DO 50 I = 1, N
         E(I) = AM(I)
         IT = 0
   10    CONTINUE
         IT = IT + 1
         DE = (E(I) - ECC*SIN(E(I)) - AM(I)) / (1.0D0 - ECC*COS(E(I)))
         E(I) = E(I) - DE
         IF (ABS(DE) .GT. 1.0D-14 .AND. IT .LT. 40) GOTO 10
   50 CONTINUE
C     Gauss-Seidel for (4 + E(I)**2) U(I) - U(I-1) - U(I+1) = F(I)
      DO 60 I = 1, N
         U(I) = 0.0D0
   60 CONTINUE
      ITER = 0
   20 CONTINUE
      ITER = ITER + 1
      RES = 0.0D0
      DO 30 I = 1, N
         UNEW = F(I)
         IF (I .GT. 1) UNEW = UNEW + U(I-1)
         IF (I .LT. N) UNEW = UNEW + U(I+1)
         UNEW = UNEW / (4.0D0 + E(I)**2)
         RES = MAX(RES, ABS(UNEW - U(I)))
         U(I) = UNEW
   30 CONTINUE
      IF (RES .LT. 1.0D-15) GOTO 40
      IF (ITER .LT. 100) GOTO 20
   40 CONTINUE
      END
