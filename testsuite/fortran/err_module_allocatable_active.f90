! adgen-test
! head: relax(e)/(u)
! expect-error: holds a pointer to active data
! expect-error-line: 9
!
! An allocatable module variable that carries derivatives would need a shadow array of
! its own, which the derivative code does not allocate: refused.
module state
  real(8), allocatable :: s(:)
end module state

subroutine relax(n, u, e)
  use state
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: e
  integer :: i
  do i = 1, n
    s(i) = 0.5d0 * s(i) + u(i)
  end do
  e = sum(s(1:n)**2)
end subroutine relax
