C adgen-test
C head: relax(x)/(x w)
C arg n: integer = 5
C arg nit: integer = 20
C arg nkeep: integer = 2
C arg x: double precision[n] = uniform(0.5, 1)
C arg w: double precision[n] = uniform(0.1, 0.3)
C
C F77 fixed form: a nonlinear relaxation iterated NIT times in a labelled DO
C loop checkpointed with Tapenade's C$AD BINOMIAL-CKP, the snapshot count a
C dummy argument (NKEEP), the directive in the declarations' comments since
C the loop is the first executable statement.
      SUBROUTINE RELAX(N, NIT, NKEEP, X, W)
      INTEGER N, NIT, NKEEP, IT, I
      DOUBLE PRECISION X(N), W(N), XL
C$AD BINOMIAL-CKP nit nkeep 1
      DO 20 IT = 1, NIT
         XL = X(N)
         DO 10 I = 1, N
            X(I) = X(I) + W(I) * (SIN(XL) - X(I) * X(I) * 0.5D0)
            XL = X(I)
 10      CONTINUE
 20   CONTINUE
      END
