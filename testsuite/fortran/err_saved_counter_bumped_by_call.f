C adgen-test
C head: f(y)/(x)
C expect-error: the SAVEd variable 'ncall' of 'f' keeps its value from one call of 'f' to the next
C expect-error-line: 16
C
C Must be refused: a SAVEd call counter that a subroutine increments (passed
C by reference) and a branch tests. The output's copy would count the calls
C of the derivative code, not the program's (it was taken for one no code
C sets, and the derivative followed the other branch from the second call).
      SUBROUTINE BUMP(K)
      INTEGER K
      K = K + 1
      END
      SUBROUTINE F(X, Y)
      DOUBLE PRECISION X, Y
      INTEGER NCALL
      SAVE NCALL
      DATA NCALL /0/
      CALL BUMP(NCALL)
      IF (MOD(NCALL, 2) .EQ. 0) THEN
         Y = X * X
      ELSE
         Y = 3.0D0 * X
      END IF
      END
