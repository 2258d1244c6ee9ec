! adgen-test
! head: f(y)/(x)
! expect-error: ALLOCATE with SOURCE is not supported
! expect-error-line: 14
!
! ALLOCATE with SOURCE= (and ERRMSG=, MOLD=) is refused; STAT= is supported.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), allocatable :: w(:)
  integer :: ierr
  allocate(w(n), source=x, stat=ierr)
  y = sum(w * w)
end subroutine f
