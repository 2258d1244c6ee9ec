C adgen-test
C head: relax(v)/(v p)
C arg n: integer = 5
C arg v: real*8[n] = uniform(0.5, 2)
C arg p: real*8[2] = [0.3d0, 1.2d0]
C
C F77 style: fixed form, implicit typing (i-n integer, others default real
C except where declared), a COMMON block filled by the routine, DO with labels.
      SUBROUTINE RELAX(N, V, P)
      DOUBLE PRECISION V(N), P(2)
      DOUBLE PRECISION OMEGA, S
      COMMON /CRLX/ OMEGA, S
      OMEGA = P(1)
      S = 0.0D0
      DO 10 I = 2, N
         V(I) = (1.0D0 - OMEGA) * V(I) + OMEGA * P(2) * V(I-1)
         S = S + V(I)
   10 CONTINUE
      DO 20 K = 1, N
         V(K) = V(K) / (1.0D0 + 0.1D0 * S)
   20 CONTINUE
      RETURN
      END
