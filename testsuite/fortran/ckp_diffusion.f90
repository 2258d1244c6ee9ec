! adgen-test
! head: diffusion(u cost)/(u kappa)
! arg n: integer = 8
! arg nsteps: integer = 25
! arg u: real(8)[n] = uniform(0.2, 1)
! arg kappa: real(8)[n] = uniform(0.5, 1.5)
! arg dt: real(8) = 0.1
! arg cost: real(8)
!
! Explicit 1-D diffusion with a nonlinear reaction term, the state in the array dummy u
! (in/out), 25 time steps binomially checkpointed with 3 kept states (Tapenade's
! `!$AD BINOMIAL-CKP nsteps 3 1`): some stretches are reached from their start again.
subroutine diffusion(n, nsteps, u, kappa, dt, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(inout) :: u(n)
  real(8), intent(in) :: kappa(n), dt
  real(8), intent(out) :: cost
  real(8) :: flux(0:n)
  integer :: t, i
  !$AD BINOMIAL-CKP nsteps 3 1
  do t = 1, nsteps
    flux(0) = 0.0d0
    flux(n) = 0.0d0
    do i = 1, n - 1
      flux(i) = 0.5d0 * (kappa(i) + kappa(i + 1)) * (u(i + 1) - u(i))
    end do
    do i = 1, n
      u(i) = u(i) + dt * (flux(i) - flux(i - 1)) - 0.1d0 * dt * u(i)**3
    end do
  end do
  cost = sum(u**2)
end subroutine
