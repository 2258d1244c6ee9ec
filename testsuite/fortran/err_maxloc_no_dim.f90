! adgen-test
! head: f(y)/(x)
! expect-error: maxloc is supported on a rank-1 array with DIM=1 (giving a scalar)
! expect-error-line: 14
!
! maxloc without DIM gives an array of one position: refused (maxloc(x, 1) is supported).
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: k(1)
  y = 0d0
  k = maxloc(x)
  y = x(k(1))
end subroutine f
