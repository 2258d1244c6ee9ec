C adgen-test
C head: f(y)/(x)
C arg x: real*8[3] = uniform(0.3, 1.2)
C arg y: real*8 = 0
C
C An ENTRY point called from two places of the head: each call has its own
C copy of the procedure in the output, and both are the output's own, so the
C SAVEd variable the entry points share is set where the output runs them
C (the second copy was taken for code that runs in the program only).
      SUBROUTINE F(X, Y)
      DOUBLE PRECISION X(3), Y
      DOUBLE PRECISION T
      CALL INIT(X(1))
      CALL STEP(X(2), T)
      CALL STEP(X(3), Y)
      Y = Y + T
      END
      SUBROUTINE INIT(A)
      DOUBLE PRECISION A, B, R, SC
      SAVE SC
      SC = A*A
      RETURN
      ENTRY STEP(B, R)
      R = SC*B + SIN(B)
      SC = SC + B
      END
