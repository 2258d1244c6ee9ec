! adgen-test
! head: f(s)/(x y)
! setup: reset_calls
! arg n: integer = 4
! arg x: real(8)[n] = [0.3d0, -0.5d0, 1.2d0, 0.7d0]
! arg y: real(8)[n] = [0.1d0, 0.2d0, 0.3d0, 0.4d0]
! arg s: real(8)
!
! A function reference inside a reduction (sum, dot_product, maxval and its mask, any) or
! inside an array expression passed as an argument is evaluated once, before the loop over
! the elements, as Fortran does; it was called once per element (its side effects repeated:
! a counter of the calls checks that). The mask's and any's references, evaluated under a
! condition, were refused.
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

  subroutine accumulate(k, v, t)
    integer, intent(in) :: k
    real(8), intent(in) :: v(k)
    real(8), intent(inout) :: t
    t = t + sum(sin(v))
  end subroutine accumulate
end module m

subroutine reset_calls()
  use m
  implicit none
  calls = 0
end subroutine reset_calls

subroutine f(n, x, y, s)
  use m
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), y(n)
  real(8), intent(out) :: s
  s = sum(x * g(n, y))
  s = s + dot_product(x, y * g(n, x)) + maxval(y * g(n, y), mask=x > g(n, x) * 0.01d0)
  if (any(x > g(n, y))) s = s + 1d0
  call accumulate(n, x * g(n, y), s)
  s = s + 0.1d0 * calls
end subroutine f
