! adgen-test
! head: f(y)/(x)
! expect-error: FORALL whose assignment reads the array it assigns elsewhere than at the element assigned is not supported
! expect-error-line: 15
!
! A FORALL whose right side reads the array it assigns (all right sides are evaluated
! before any element is assigned) is refused: loops would give other values.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  integer :: i
  y = x
  forall (i = 2:n) y(i) = y(i - 1) * 2d0
end subroutine f
