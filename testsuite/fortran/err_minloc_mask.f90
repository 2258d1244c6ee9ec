! adgen-test
! head: f(y)/(x)
! expect-error: minloc with MASK, KIND or BACK is not supported
! expect-error-line: 13
!
! minloc with MASK= is refused.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: k
  k = minloc(x, 1, mask=x > 0d0)
  y = x(k)
end subroutine f
