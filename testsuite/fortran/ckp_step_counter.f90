! adgen-test
! head: diffusion(u cost)/(u kappa)
! arg n: integer = 8
! arg nsteps: integer = 25
! arg u: real(8)[n] = uniform(0.2, 1)
! arg kappa: real(8)[n] = uniform(0.5, 1.5)
! arg dt: real(8) = 0.1
! arg cost: real(8)
!
! A time loop under BINOMIAL-CKP whose counter is passed to the step routine (an
! argument Fortran passes by reference): the procedure may not change a DO variable, so
! the counter goes through a temporary and the loop stays counted.
subroutine step(n, u, kappa, dt, t)
  implicit none
  integer, intent(in) :: n, t
  real(8), intent(inout) :: u(n)
  real(8), intent(in) :: kappa(n), dt
  integer :: i
  do i = 1, n
    u(i) = u(i) - dt * kappa(i) * u(i)**3 / t
  end do
end subroutine
subroutine diffusion(n, nsteps, u, kappa, dt, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(inout) :: u(n)
  real(8), intent(in) :: kappa(n), dt
  real(8), intent(out) :: cost
  integer :: t
  !$AD BINOMIAL-CKP nsteps 3 1
  do t = 1, nsteps
    call step(n, u, kappa, dt, t)
  end do
  cost = sum(u**2)
end subroutine
