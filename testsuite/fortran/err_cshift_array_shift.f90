! adgen-test
! head: f(b)/(a)
! expect-error: cshift with an array of shifts is not supported (a scalar shift is)
! expect-error-line: 13
!
! cshift of a matrix by a different shift per column is refused.
subroutine f(n, a, s, b)
  implicit none
  integer, intent(in) :: n, s(n)
  real(8), intent(in) :: a(n, n)
  real(8), intent(out) :: b(n, n)
  b = 0d0
  b = cshift(a, s, 1) * a
end subroutine f
