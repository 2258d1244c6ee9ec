! adgen-test
! head: rounding(y)/(x)
! arg x: real(8)[4] = [0.37d0, -1.64d0, 2.71d0, 1.23d0]
! arg k: integer = 3
! arg y: real(8)[10]
!
! abs min max mod sign, and the conversions real dble int nint floor (whose results
! are piecewise constant: derivative zero), integer mod.
subroutine rounding(x, k, y)
  implicit none
  real(8), intent(in) :: x(4)
  integer, intent(in) :: k
  real(8), intent(out) :: y(10)
  integer :: j
  y(1) = abs(x(2)) * x(1)
  y(2) = min(x(1), x(3), x(4)) + max(x(2), x(4))
  y(3) = mod(x(3), 1.0d0) + mod(x(2), 0.5d0)
  y(4) = sign(x(1), x(2)) + sign(2.0d0, x(3)) * x(4)
  y(5) = real(int(x(3)), 8) * x(1) + dble(nint(x(4))) * x(2)
  y(6) = floor(x(2)) * x(3) + x(1) * real(k, 8)
  j = mod(k + 7, 4)
  y(7) = x(j) * 2.0d0
  y(8) = dble(int(x(1) * 10.0d0)) + x(1)
  y(9) = max(abs(x(1) - x(4)), 0.1d0) * min(x(3), 3.0d0)
  y(10) = real(x(1) * x(4), 8) + dble(x(3))
end subroutine rounding
