c adgen-test
c head: quad(y)/(x)
c arg x: double precision = 0.7
c arg y: double precision
c
c Arrays given their shape by a DIMENSION statement before or after their type statement,
c filled by DATA (whole, and element by element) or SAVEd (as QUADPACK's rule tables and
c old work arrays are): the same array whichever statement comes first.
      subroutine quad(x, y)
      double precision x, y, w, r
      integer i
      dimension w(3)
      dimension v(3)
      double precision v
      dimension r(3)
      save r
      data w /0.5d0, 1.5d0, 2.5d0/
      data v(1) /1d0/, v(2) /-2d0/, v(3) /3d0/
      do 10 i = 1, 3
         r(i) = v(i) * x + w(i)
   10 continue
      y = 0d0
      do 20 i = 1, 3
         y = y + r(i) * r(i) * w(i) + sin(r(i) * x)
   20 continue
      end
