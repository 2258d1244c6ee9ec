! adgen-test
! head: advdiff(u)/(u vel nu)
! arg n: integer = 10
! arg nsteps: integer = 12
! arg u: real(8)[0:n+1] = uniform(0, 1)
! arg vel: real(8)[n] = [0.8d0, 0.6d0, 0.3d0, -0.2d0, -0.5d0, -0.4d0, 0.1d0, 0.5d0, 0.7d0, -0.3d0]
! arg nu: real(8) = 0.05
! arg dt: real(8) = 0.04
!
! Advection-diffusion u_t + v u_x = nu u_xx on a 1-D grid with ghost cells u(0) and
! u(n+1) (fixed boundary values), time-stepped in place (u is in/out): upwind
! differences chosen per cell with WHERE / ELSEWHERE on the sign of the velocity,
! central diffusion, array syntax throughout.
subroutine advdiff(n, nsteps, u, vel, nu, dt)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(inout) :: u(0:n+1)
  real(8), intent(in) :: vel(n), nu, dt
  real(8) :: dudx(n), lap(n), dx
  integer :: step
  dx = 1.0d0 / (n + 1)
  do step = 1, nsteps
    where (vel > 0.0d0)
      dudx = (u(1:n) - u(0:n-1)) / dx
    elsewhere
      dudx = (u(2:n+1) - u(1:n)) / dx
    end where
    lap = (u(2:n+1) - 2.0d0 * u(1:n) + u(0:n-1)) / dx**2
    u(1:n) = u(1:n) + dt * (nu * lap - vel * dudx)
  end do
end subroutine advdiff
