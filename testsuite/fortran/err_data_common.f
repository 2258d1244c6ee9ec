c adgen-test
c head: scaled(y)/(x)
c expect-error: DATA for 'gain', which is not a local variable
c expect-error-line: 11
c
c Must be refused: DATA for a variable of a COMMON block, whose storage the
c program's other units share (BLOCK DATA is where Fortran gives it values).
      subroutine scaled(x, y)
      real*8 x, y, gain
      common /params/ gain
      data gain /2d0/
      y = gain * x * x
      end
