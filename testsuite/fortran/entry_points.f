C adgen-test
C head: top(y)/(a b x)
C arg a: double precision = 0.8
C arg b: double precision = -0.3
C arg x: double precision = 1.4
C arg y: double precision
C
C ENTRY statements, as older libraries use them: SETUP keeps its arguments
C in SAVEd variables that the entry point APPLY reads (one state shared by
C the entry points, HALF set by DATA), RESET's code runs on into APPLY's
C (an ENTRY statement is not executable), the function ROOT2 has the
C second entry point CUBE2 with a dummy of its own, and SCALED jumps into
C the code of its entry BASE, whose result variable is SCALED's own (what
C BASE assigns, SCALED returns). Before: "unsupported statement (Entry_Stmt)".
      SUBROUTINE SETUP(A, B)
      DOUBLE PRECISION A, B, X, Y, SCALE, SHIFT, HALF
      SAVE SCALE, SHIFT, HALF
      DATA HALF /0.5D0/
      SCALE = A
      SHIFT = B
      RETURN
      ENTRY RESET(X, Y)
      SCALE = SCALE * HALF
      ENTRY APPLY(X, Y)
      Y = SCALE * X * X + SHIFT * SIN(X) + HALF
      END

      DOUBLE PRECISION FUNCTION ROOT2(U)
      DOUBLE PRECISION U, V, CUBE2
      ROOT2 = SQRT(U * U + 1.0D0)
      RETURN
      ENTRY CUBE2(V)
      CUBE2 = V * V * V
      RETURN
      END

      DOUBLE PRECISION FUNCTION SCALED(U)
      DOUBLE PRECISION U, V, T, BASE
      T = 3.0D0 * U
      GO TO 10
      ENTRY BASE(V)
      T = V
   10 BASE = EXP(0.5D0 * T) - T
      END

      SUBROUTINE TOP(A, B, X, Y)
      DOUBLE PRECISION A, B, X, Y, Z, ROOT2, CUBE2, SCALED, BASE
      CALL SETUP(A, B)
      CALL APPLY(X, Y)
      CALL RESET(X, Z)
      Y = Y + Z * ROOT2(X) + CUBE2(A + Y) + SCALED(B * X) * BASE(A)
      END
