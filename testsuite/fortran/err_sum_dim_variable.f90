! adgen-test
! head: f(c)/(a)
! expect-error: sum: DIM must be a constant from 1 to 2
! expect-error-line: 14
!
! SUM with a DIM known only at run time (the rank of its result would be fixed, its shape
! not) is refused.
subroutine f(n, k, a, c)
  implicit none
  integer, intent(in) :: n, k
  real(8), intent(in) :: a(n, n)
  real(8), intent(out) :: c(n)
  c = 0d0
  c = sum(a, dim=k)
end subroutine f
