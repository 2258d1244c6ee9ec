! 1-D viscous Burgers equation u_t + (u^2/2)_x = (nu(x) u_x)_x on a periodic grid, explicit
! Euler steps with central differences: the misfit of the final state to an observed one.
! The same model as burgers.c, written the Fortran way (array syntax, work array passed in).
! The time loop is checkpointed; preprocessed with -DBURGERS_NO_CHECKPOINT, adgen stores
! every step instead.

! One explicit step from u to u_next; nu_face(i) sits between points i and i+1.
subroutine burgers_step(n, u, nu_face, dt, dx, u_next)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: u(n), nu_face(n), dt, dx
  double precision, intent(out) :: u_next(n)
  double precision, parameter :: nu_ref = 0.01d0
  double precision :: c_adv, c_diff, flux_right, flux_left, diffusion
  integer :: i, left, right
  c_adv = dt / (2.0d0 * dx)
  c_diff = nu_ref * dt / (dx * dx)
  do i = 1, n
    left = mod(i + n - 2, n) + 1
    right = mod(i, n) + 1
    flux_right = 0.5d0 * u(right)**2
    flux_left = 0.5d0 * u(left)**2
    diffusion = nu_face(i) * (u(right) - u(i)) - nu_face(left) * (u(i) - u(left))
    u_next(i) = u(i) - c_adv * (flux_right - flux_left) + c_diff * diffusion
  end do
end subroutine burgers_step

subroutine burgers_objective(n, nsteps, u0, nu_face, u_obs, dt, dx, u, u_next, misfit)
  implicit none
  integer, intent(in) :: n, nsteps
  double precision, intent(in) :: u0(n), nu_face(n), u_obs(n), dt, dx
  double precision, intent(inout) :: u(n), u_next(n)
  double precision, intent(out) :: misfit
  integer :: t
  u = u0
#ifndef BURGERS_NO_CHECKPOINT
  !$AD BINOMIAL-CKP nsteps 50 1
#endif
  do t = 1, nsteps
    call burgers_step(n, u, nu_face, dt, dx, u_next)
    u = u_next
  end do
  misfit = 0.5d0 * dx * sum((u - u_obs)**2)
end subroutine burgers_objective
