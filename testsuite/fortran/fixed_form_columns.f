C adgen-test
C head: cards(y)/(x)
C arg n: integer = 4
C arg x: real(8)[n] = uniform(0.5, 1.5)
C arg y: real(8)[n]
C
C Fixed form as the standard reads it: columns 73-80 hold a card's sequence
C number and are ignored (a 1 there after 2.0D0 made it 2.0D01, silently ten
C times larger; letters there were a syntax error), and a 0 in column 6 marks
C an initial line, not a continuation (it was joined to the line before).
      SUBROUTINE CARDS(N, X, Y)                                         CARD0010
      INTEGER N, I                                                      CARD0020
      DOUBLE PRECISION X(N), Y(N), S                                    CARD0030
     0S = 0.0D0                                                         CARD0040
      DO 10 I = 1, N                                                           1
         S = S + X(I) * 2.0D0                                                  1
         Y(I) = S *                                                     CARD0070
     &      X(I)                                                        CARD0080
   10 CONTINUE                                                          CARD0090
     0RETURN                                                            CARD0100
      END
