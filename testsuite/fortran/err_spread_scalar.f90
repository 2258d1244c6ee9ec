! adgen-test
! head: f(b)/(a)
! expect-error: spread of a scalar is not supported (of an array is)
! expect-error-line: 12
!
! spread of a scalar (an array of copies of one value) is refused.
subroutine f(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a
  real(8), intent(out) :: b(n)
  b = spread(a, 1, n) * 2d0
end subroutine f
