! adgen-test
! head: f(y)/(x y)
! setup: reset_calls
! arg n: integer = 4
! arg x: real(8)[n] = [0.3d0, -0.5d0, 1.2d0, 0.7d0]
! arg y: real(8)[n] = [0.1d0, 0.2d0, 0.3d0, 0.4d0]
!
! Random program 7800018: a function reference in an array assignment that is passed the
! array assigned was evaluated once per element, reading the elements assigned so far
! (wrong values and derivatives). Fortran evaluates it once, before the assignment (and
! once for a WHERE mask); a counter of the calls checks that.
module m
  implicit none
  integer :: calls = 0
contains
  function g(k, v) result(r)
    integer, intent(in) :: k
    real(8), intent(in) :: v(k)
    real(8) :: r
    calls = calls + 1
    r = sum(v**2)
  end function g
end module m

subroutine reset_calls()
  use m
  implicit none
  calls = 0
end subroutine reset_calls

subroutine f(n, x, y)
  use m
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: y(n)
  y(1:n) = 0.5d0 * (x(1:n) + g(n, y(1:n)))
  where (x > 0d0)
    y = y * g(n, x) + sin(y)
  end where
  where (x * g(n, y) > 0.2d0) y = y + cos(x)
  y(1) = y(1) + 0.1d0 * calls
end subroutine f
