! adgen-test
! head: piecewise(y)/(x a)
! arg n: integer = 8
! arg x: real(8)[n] = [-2.6d0, -1.4d0, -0.3d0, 0.45d0, 1.3d0, 2.2d0, 3.3d0, 4.7d0]
! arg a: real(8) = 1.1
! arg y: real(8)[n]
!
! IF / ELSE IF / ELSE, logical operators, and SELECT CASE on an integer with single
! values, lists, ranges (lo:hi, :hi, lo:) and DEFAULT.
subroutine piecewise(n, x, a, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), a
  real(8), intent(out) :: y(n)
  integer :: i, bin
  do i = 1, n
    if (x(i) < -1.0d0) then
      y(i) = a * x(i)
    else if (x(i) < 0.0d0 .or. x(i) > 4.0d0) then
      y(i) = a * x(i)**2
    else if (x(i) >= 1.0d0 .and. x(i) /= 3.0d0) then
      y(i) = exp(0.3d0 * x(i)) - a
    else
      y(i) = x(i)**3 + a
    end if
    bin = floor(x(i))
    select case (bin)
    case (:-2)
      y(i) = y(i) * 2.0d0
    case (-1, 0)
      y(i) = y(i) + a * x(i)
    case (1)
      y(i) = y(i) - a**2 * x(i)
    case (2:3)
      y(i) = y(i) * a
    case default
      y(i) = y(i) / a
    end select
  end do
end subroutine piecewise
