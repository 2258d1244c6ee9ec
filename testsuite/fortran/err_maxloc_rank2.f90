! adgen-test
! head: f(y)/(a)
! expect-error: maxloc is supported on a rank-1 array (with DIM=1 or without DIM)
! expect-error-line: 12
!
! maxloc of a matrix (positions of rank 2) is refused.
subroutine f(a, y)
  implicit none
  real(8), intent(in) :: a(3, 3)
  real(8), intent(out) :: y
  integer :: k(2)
  k = maxloc(a)
  y = a(k(1), k(2))
end subroutine f
