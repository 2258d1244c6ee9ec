C adgen-test
C head: apply(y)/(x)
C expect-error: which its ENTRY points share, is set in 'setup'
C expect-error-line: 13
C
C Must be refused: the head APPLY reads SCALE, which only SETUP sets, and
C the program calls SETUP itself. gfortran keeps the program's SCALE where
C the output cannot reach it, so the output's own copy would never be set
C (the derivative would use 0 for SCALE).
      SUBROUTINE SETUP(A)
      DOUBLE PRECISION A, X, Y, SCALE
      SAVE SCALE
      SCALE = A
      RETURN
      ENTRY APPLY(X, Y)
      Y = SCALE * X * X
      END
