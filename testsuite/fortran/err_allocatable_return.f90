! adgen-test
! head: f(y)/(x)
! expect-error: RETURN in a procedure with allocatable
! expect-error-line: 14
!
! Allocatable locals are freed at the end of the procedure; a RETURN before it is refused.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), allocatable :: w(:)
  y = 0d0
  if (n < 1) return
  allocate(w(n))
  w = x * x
  y = sum(w)
end subroutine f
