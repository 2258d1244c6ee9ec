! adgen-test
! head: march(cost)/(u0 nu)
! arg n: integer = 10
! arg nsteps: integer = 40
! arg u0: real(8)[n] = uniform(0, 1)
! arg nu: real(8) = 0.2
! arg cost: real(8)
!
! A time loop under BINOMIAL-CKP whose state lives in allocatable arrays allocated
! before it: the snapshots keep them through their pointers, with the lengths ALLOCATE
! gave them.
subroutine march(n, nsteps, u0, nu, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: u0(n), nu
  real(8), intent(out) :: cost
  real(8), allocatable :: u(:), un(:)
  integer :: step, i
  allocate(u(0:n + 1), un(n))
  u(1:n) = u0
  u(0) = 0d0
  u(n + 1) = 0d0
  !$AD BINOMIAL-CKP nsteps 4 1
  do step = 1, nsteps
    do i = 1, n
      un(i) = u(i) + nu * (u(i - 1) - 2d0 * u(i) + u(i + 1)) - 0.05d0 * u(i)**3
    end do
    u(1:n) = un
  end do
  cost = sum(u(1:n)**2)
end subroutine march
