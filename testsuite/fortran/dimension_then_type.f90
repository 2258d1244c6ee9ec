! adgen-test
! head: dimension_then_type(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
!
! DIMENSION statements before the type declarations of the same names (the older style):
! `x` and the local `w` are double precision arrays, `y` a double precision scalar.
subroutine dimension_then_type(n, x, y)
  dimension x(n), w(3)
  double precision x, y, w
  w = 2.0d0
  w(2) = 0.5d0
  y = 0.0d0
  do i = 1, n
    y = y + x(i)**2 * w(mod(i, 3) + 1)
  end do
end subroutine dimension_then_type
