c adgen-test
c head: wsum(y)/(x)
c arg x: real(8)[5] = uniform(-1, 1)
c arg y: real(8)
c
c DATA statements of an F77 routine: whole arrays with repeat counts and signed
c values, a scalar, elements, implied-DO lists (nested too), an integer. Each
c variable DATA gives a value is SAVEd: a static variable of the output with
c that initializer.
      subroutine wsum(x, y)
      real*8 x(5), y, w(5), b, c(0:3), t(2, 2)
      integer i, j, nrm
      data w /3*0.5d0, 1.5d0, -2d0/, b /2.5d0/
      data c(0), c(1) /1d0, 2d0/, (c(i), i = 2, 3) /2*4d0/
      data ((t(i, j), i = 1, 2), j = 1, 2) /1d0, 2d0, 3d0, 4d0/
      data nrm /2/
      y = b
      do 10 i = 1, 5
         y = y + w(i) * x(i)**2
   10 continue
      y = y * c(0) + c(3) * x(1) + t(2, 1) * x(2) * t(1, 2) / nrm
      end
