! adgen-test
! head: f(y)/(x)
! expect-error: array 'x' passed for a scalar dummy argument of 'sq'
! expect-error-line: 24
!
! An array given for a scalar dummy argument of a procedure that is not ELEMENTAL is an
! error of the program; adgen reports it (it used to pass the array's first element).
module m
  implicit none
contains
  function sq(t) result(r)
    real(8), intent(in) :: t
    real(8) :: r
    r = t * t
  end function sq
end module m

subroutine f(n, x, y)
  use m
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  y = sq(x) + 1d0
end subroutine f
