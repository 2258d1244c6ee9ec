C adgen-test
C head: smooth(y)/(x w)
C arg n: integer = 5
C arg x: double precision[n] = uniform(0.5, 1.5)
C arg w: double precision = 0.3
C arg y: double precision[n]
C
C Labelled DO loops of F77 code that share one terminal statement: DO 40 I / DO 40 J /
C 40 CONTINUE with a statement between the two DO statements and a GOTO to the shared
C label from the inner loop (its next iteration); three loops ending on one labelled
C assignment, which runs once per iteration of the innermost loop; a loop ending on
C its own labelled assignment.
      SUBROUTINE SMOOTH(N, X, W, Y)
      INTEGER N, I, J, K
      DOUBLE PRECISION X(N), W, Y(N), S
      DO 10 I = 1, N
   10 Y(I) = X(I)
      DO 40 I = 1, N
         S = 0.0D0
      DO 40 J = 1, N
         IF (J .EQ. I) GOTO 40
         S = S + W * X(J) * Y(I)
         Y(I) = Y(I) + 0.1D0 * S
   40 CONTINUE
      DO 50 K = 1, 2
      DO 50 I = 1, N
      DO 50 J = 1, I
   50 Y(I) = Y(I) + W * SIN(X(J) * Y(I)) / DBLE(N + K)
      END
