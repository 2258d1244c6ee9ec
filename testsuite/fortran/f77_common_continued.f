C adgen-test
C head: top(y)/(x)
C arg x: real*8 = 0.4d0
C arg y: real*8 = 0
C
C A COMMON block named again, by a second COMMON statement and twice in one
C statement, goes on where it stopped: /P/ is (A, B, C) in TOP as in EVAL,
C and the blank COMMON is (S, T). Each member is its own field (B and C were
C laid over A, the first field, before).
      SUBROUTINE TOP(X, Y)
      DOUBLE PRECISION X, Y, A, B, C, S, T, Z
      COMMON /P/ A
      COMMON /P/ B /Q/ Z, /P/ C
      COMMON S
      COMMON T
      A = X
      B = X * X
      C = 5.0D0
      Z = SIN(X)
      S = 2.0D0 * X
      T = 0.5D0
      CALL EVAL(Y)
      END
      SUBROUTINE EVAL(Y)
      DOUBLE PRECISION Y, U, V, W, Z, S, T
      COMMON /P/ U, V, W
      COMMON /Q/ Z
      COMMON S, T
      Y = U + 10.0D0 * V + 100.0D0 * W * Z + S * T * U
      END
