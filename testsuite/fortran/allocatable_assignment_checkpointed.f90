! adgen-test
! head: relax(cost)/(x)
! arg n: integer = 6
! arg nsteps: integer = 9
! arg x: real(8)[n] = uniform(0.5, 1)
! arg cost: real(8)
!
! A local allocatable array given its shape by two assignments (allocatable_assignment.f90)
! before a BINOMIAL-CKP loop that updates it with its own shape (never reallocated there):
! the kept states hold its block with the extents it was last given.
subroutine relax(n, nsteps, x, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: cost
  real(8), allocatable :: z(:)
  integer :: k
  z = x(1:2)
  z = x * 0.5d0
  !$AD BINOMIAL-CKP nsteps 3 1
  do k = 1, nsteps
    z = 0.9d0 * z + 0.1d0 * sin(z) * x
  end do
  cost = sum(z**2) + size(z)
end subroutine relax
