C adgen-test
C head: run(y)/(x)
C arg x: double precision = 0.7
C arg y: double precision
C
C Dummy procedures that the routine only CALLs, with no EXTERNAL statement
C (Fortran needs none: the subject of a CALL is a subroutine), as Hairer's
C DOPRI5 passes its SOLOUT: HOOK in STEP, and under IMPLICIT NONE (no type
C needed either) RHS in ADVANCE. Before, the call passing NOOP was refused
C ("declares it as a variable"), and under IMPLICIT NONE the procedure passed
C was said to have no type.
      SUBROUTINE STEP(F, HOOK, X, Y)
      DOUBLE PRECISION X, Y
      EXTERNAL F
      CALL F(X, Y)
      CALL HOOK(Y)
      END

      SUBROUTINE ADVANCE(RHS, Y)
      IMPLICIT NONE
      DOUBLE PRECISION Y, DY
      CALL RHS(Y, DY)
      Y = Y + 0.1D0 * DY
      END

      SUBROUTINE SQ(X, Y)
      DOUBLE PRECISION X, Y
      Y = X * X + SIN(X)
      END

      SUBROUTINE DECAY(Y, DY)
      DOUBLE PRECISION Y, DY
      DY = -Y * Y
      END

      SUBROUTINE DAMP(Y)
      DOUBLE PRECISION Y
      Y = 0.9D0 * Y
      END

      SUBROUTINE RUN(X, Y)
      DOUBLE PRECISION X, Y
      EXTERNAL SQ, DAMP, DECAY
      CALL STEP(SQ, DAMP, X, Y)
      CALL ADVANCE(DECAY, Y)
      END
