C adgen-test
C head: top(s)/(a b)
C arg a: double precision = 0.2
C arg b: double precision = 1.3
C arg s: double precision
C
C The F77 form of a dummy function referenced without EXTERNAL: F is typed
C DOUBLE PRECISION and referenced as F(A), F(A + I*H), and passed on by a
C routine that declares it EXTERNAL. Before, refused ("declared as a variable").
      SUBROUTINE TRAP(F, A, B, N, S)
      INTEGER N, I
      DOUBLE PRECISION F, A, B, S, H
      H = (B - A) / N
      S = 0.5D0 * (F(A) + F(B))
      DO 10 I = 1, N - 1
         S = S + F(A + I*H)
   10 CONTINUE
      S = S * H
      END

      SUBROUTINE PASS(G, A, B, S)
      DOUBLE PRECISION A, B, S, G
      EXTERNAL G
      CALL TRAP(G, A, B, 12, S)
      END

      DOUBLE PRECISION FUNCTION CURVE(X)
      DOUBLE PRECISION X
      CURVE = X * X * SIN(X)
      END

      SUBROUTINE TOP(A, B, S)
      DOUBLE PRECISION A, B, S, CURVE
      EXTERNAL CURVE
      CALL PASS(CURVE, A, B, S)
      END
