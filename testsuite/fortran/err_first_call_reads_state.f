C adgen-test
C head: wrap(y)/(x)
C expect-error: keeps its value from one call of 'wrap' to the next
C expect-error-line: 11
C
C Must be refused: the first-call block computes SCALE from a function that
C reads a COMMON variable, which the program may change between calls, so
C the output's copy of SCALE, set on its own first call, may differ from
C the program's.
      SUBROUTINE WRAP(X, Y)
      DOUBLE PRECISION X, Y, SCALE, GAIN
      LOGICAL FIRST
      SAVE FIRST, SCALE
      DATA FIRST /.TRUE./
      IF (FIRST) THEN
         SCALE = GAIN(2.0D0)
      ENDIF
      FIRST = .FALSE.
      Y = SCALE * X * X
      END
      DOUBLE PRECISION FUNCTION GAIN(Z)
      DOUBLE PRECISION Z, G
      COMMON /TUNING/ G
      GAIN = G * Z
      END
