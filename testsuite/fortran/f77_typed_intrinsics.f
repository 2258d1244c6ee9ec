c adgen-test
c head: clip(r)/(x y)
c arg x: double precision = 0.6
c arg y: double precision = -1.3
c arg r: double precision
c
c Intrinsics named in a type statement (old code declares the type of each function it
c calls) stay the intrinsics, also called with a constant argument: no EXTERNAL names
c them.
      subroutine clip(x, y, r)
      double precision x, y, r, dmin1, dmax1, dsign, dabs, datan2
      r = y * dmin1(1d0, x) + dmax1(0d0, x) * dsign(1d0, y)
      r = r + dabs(2d0) * x + datan2(1d0, x) * y
      end
