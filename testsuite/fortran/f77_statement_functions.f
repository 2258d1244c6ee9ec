C adgen-test
C head: flux(f)/(u w)
C arg n: integer = 5
C arg u: real(8)[n] = uniform(0.2, 1.2)
C arg w: real(8) = 0.7
C arg f: real(8)[n]
C
C Statement functions, as FORTRAN 77 codes define them: several dummies, one reading a
C variable of the procedure (W, at the time of the reference), one using another, one
C implicitly typed, a dummy named like a variable the procedure also uses (T), and an
C argument that calls a function. They were refused ("'quad' is not an array").
      SUBROUTINE FLUX(N, U, W, F)
      INTEGER N, I
      DOUBLE PRECISION U(N), W, F(N), T, A, B, QUAD, HARM, GFUN
      DOUBLE PRECISION SIG
      QUAD(A, B) = A * A + W * B
      HARM(A, B) = 2.0D0 * A * B / (A + B)
      SIG(T) = T / (1.0D0 + DABS(T))
      SCL(Z) = 0.5 * Z
      T = 0.25D0
      DO 10 I = 1, N
         IF (I .GT. 1) THEN
            F(I) = QUAD(U(I), U(I - 1)) + HARM(U(I), T)
         ELSE
            F(I) = SIG(U(I) * W) + T
         END IF
         F(I) = F(I) + SCL(1.0) * GFUN(U(I)) + QUAD(GFUN(U(I)), T)
         W = W + 0.1D0 * SIG(F(I))
   10 CONTINUE
      RETURN
      END

      DOUBLE PRECISION FUNCTION GFUN(V)
      DOUBLE PRECISION V
      GFUN = DSIN(V) + V
      RETURN
      END
