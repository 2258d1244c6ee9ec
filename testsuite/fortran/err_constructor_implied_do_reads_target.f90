! adgen-test
! head: f(e)/(x)
! expect-error: an array constructor with an implied-do is supported as the whole right side of an assignment only
! expect-error-line: 15
!
! An array constructor with an implied-do that reads the array it is assigned to is
! refused (its values would have to be computed before any is assigned).
subroutine f(x, e)
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: e
  real(8) :: v(3)
  integer :: i
  v = x
  v = [(v(4 - i), i = 1, 3)]
  e = v(1) + 3d0 * v(2) ** 2 + v(3)
end subroutine f
