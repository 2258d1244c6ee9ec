! adgen-test
! head: f(y)/(x)
! expect-error: the allocatable scalar 's', a dummy argument, is not supported
! expect-error-line: 18
!
! An allocatable scalar dummy: ALLOCATE, DEALLOCATE and assignment of it would change its
! allocation status for the caller, which a local allocatable scalar's flag cannot tell.
subroutine f(x, y)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  real(8), allocatable :: s
  call set(x, s)
  y = s
end subroutine f
subroutine set(x, s)
  real(8), intent(in) :: x
  real(8), allocatable, intent(inout) :: s
  s = x * x
end subroutine set
