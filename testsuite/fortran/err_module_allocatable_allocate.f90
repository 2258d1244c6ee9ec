! adgen-test
! head: grow(e)/(u)
! expect-error: ALLOCATE or DEALLOCATE of the allocatable module variable 's' is not supported
! expect-error-line: 18
!
! The derivative code reads allocatable module variables through gfortran's descriptors
! but does not allocate them.
module state
  real(8), allocatable :: s(:)
end module state

subroutine grow(n, u, e)
  use state
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: e
  allocate(s(n))
  s = 2d0
  e = sum(s * u)
  deallocate(s)
end subroutine grow
