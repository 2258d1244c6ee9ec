! adgen-test
! head: ice_flow(h volume)/(h0 smb)
! arg nx: integer = 8
! arg nt: integer = 10
! arg h0: real(8)[nx] = uniform(1.0, 1.1)
! arg b: real(8)[nx] = uniform(0.0, 0.05)
! arg smb: real(8)[nx] = uniform(-0.05, 0.05)
! arg dx: real(8) = 1.0
! arg dt: real(8) = 0.2
! arg h: real(8)[nx]
! arg volume: real(8)
! tol: 1e-5
!
! A 1-D shallow-ice (SIA) glacier model: explicit time steps of
! dH/dt = -dq/dx + smb with the flux q = -A H^(n+2) |ds/dx|^(n-1) ds/dx on a
! staggered grid (Glen's n = 3), written with array syntax and sections, the
! thickness kept non-negative with WHERE. Dependents: the final thickness and the
! ice volume; independents: the initial thickness and the surface mass balance.
module sia_model
  implicit none
  integer, parameter :: dp = 8
  real(dp), parameter :: glen_n = 3.0_dp
  real(dp), parameter :: rate_factor = 1.0_dp
contains
  subroutine sia_step(nx, h, b, smb, dx, dt, hnew)
    integer, intent(in) :: nx
    real(dp), intent(in) :: h(nx), b(nx), smb(nx), dx, dt
    real(dp), intent(out) :: hnew(nx)
    real(dp) :: s(nx), slope(nx-1), hstag(nx-1), diff(nx-1), q(0:nx)
    s = b + h
    slope = (s(2:nx) - s(1:nx-1)) / dx
    hstag = 0.5_dp * (h(2:nx) + h(1:nx-1))
    diff = rate_factor * hstag**(glen_n + 2.0_dp) * abs(slope)**(glen_n - 1.0_dp)
    q = 0.0_dp
    q(1:nx-1) = -diff * slope
    hnew = h + dt * (smb - (q(1:nx) - q(0:nx-1)) / dx)
    where (hnew < 0.0_dp)
      hnew = 0.0_dp
    end where
  end subroutine sia_step
end module sia_model

subroutine ice_flow(nx, nt, h0, b, smb, dx, dt, h, volume)
  use sia_model, only: dp, sia_step
  implicit none
  integer, intent(in) :: nx, nt
  real(dp), intent(in) :: h0(nx), b(nx), smb(nx), dx, dt
  real(dp), intent(out) :: h(nx), volume
  real(dp) :: hnew(nx)
  integer :: it
  h = h0
  do it = 1, nt
    call sia_step(nx, h, b, smb, dx, dt, hnew)
    h = hnew
  end do
  volume = sum(h) * dx
end subroutine ice_flow
