! adgen-test
! head: model(f)/(x)
! arg x: real(8)[3] = [0.3d0, -0.5d0, 1.2d0]
! arg f: real(8)
!
! The blank COMMON declared with different lengths, as the standard allows for it: the
! head's unit names three values and a work array of 4, a helper only the first two
! values, another the values and a longer work array (the block grows to the longest), a
! last one the values and a shorter view of the work array.
      subroutine model(x, f)
      double precision x(3), f, a, b, c, w(4)
      common // a, b, c, w
      integer i
      a = x(1)
      b = x(2) * x(1)
      c = sin(x(3))
      call fill
      call ends(f)
      do i = 1, 4
        f = f + w(i) * a
      end do
      end
      subroutine fill
      double precision p, q, r, w(6)
      common // p, q, r, w
      integer i
      do i = 1, 6
        w(i) = p * i + q * r
      end do
      end
      subroutine ends(f)
      double precision f, p, q
      common // p, q
      f = p * q
      call tail(f)
      end
      subroutine tail(f)
      double precision f, p, q, r, w(2)
      common // p, q, r, w
      f = f + w(1) * w(2) * r + w(6 - 4)
      end
