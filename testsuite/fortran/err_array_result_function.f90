! adgen-test
! head: f(y)/(x)
! expect-error: function 'twice' returns an array: not supported
! expect-error-line: 25
!
! A function whose result is an array is refused (it used to be called once per element
! as if it returned a scalar).
module m
  implicit none
contains
  function twice(n, x) result(r)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8) :: r(n)
    r = 2d0 * x
  end function twice
end module m

subroutine f(n, x, y)
  use m
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  y = twice(n, x) + 1d0
end subroutine f
