C adgen-test
C head: zfold(y)/(xr xi)
C arg n: integer = 4
C arg xr: double precision[n] = uniform(0.3, 1.2)
C arg xi: double precision[n] = uniform(-0.8, 0.8)
C arg y: double precision
C
C The COMPLEX*16 idioms of LINPACK and the BLAS: gfortran's specific names
C (DCMPLX, DREAL, DIMAG, DCONJG, CDABS), which fparser reads as references
C to arrays or external functions; statement functions of COMPLEX*16 dummies
C (CABS1 through DREAL and DIMG, one referencing the others), in a DO loop
C and in an IF test; a function of the input given a complex element in a
C real expression. Before, the specific names gave 'program too deeply
C nested' outside a loop and ran with no end inside one, as did the
C statement functions and the function reference.
      DOUBLE PRECISION FUNCTION ZMOD2(Z)
      COMPLEX*16 Z
      ZMOD2 = DREAL(Z)**2 + DIMAG(Z)**2
      END

      SUBROUTINE ZFOLD(N, XR, XI, Y)
      INTEGER N, K
      DOUBLE PRECISION XR(N), XI(N), Y, ZMOD2
      COMPLEX*16 C(8), T, ZDUM, ZDUMR, ZDUMI
      DOUBLE PRECISION CABS1, DREAL, DIMG
      DREAL(ZDUMR) = ZDUMR
      DIMG(ZDUMI) = (0.0D0,-1.0D0)*ZDUMI
      CABS1(ZDUM) = DABS(DREAL(ZDUM)) + DABS(DIMG(ZDUM))
      DO 10 K = 1, N
         C(K) = DCMPLX(XR(K), XI(K))
   10 CONTINUE
      Y = 0.0D0
      T = (0.0D0, 0.0D0)
      DO 20 K = 1, N
         T = T + C(K) * DCONJG(C(K)) * 0.5D0 + DCMPLX(DIMAG(C(K)))
         Y = Y + CABS1(C(K))**2 + CDABS(C(K)) * ZMOD2(C(K))
         IF (CABS1(C(K)) .GT. 1.0D0) Y = Y + DREAL(C(K)) * DIMAG(C(K))
   20 CONTINUE
      Y = Y + DREAL(T) + 2.0D0 * DIMAG(T)
      END
