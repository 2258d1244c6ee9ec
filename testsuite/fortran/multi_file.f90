! adgen-test
! head: projectile(x)/(v0 angle)
! arg nsteps: integer = 20
! arg v0: real(8) = 12.0
! arg angle: real(8) = 0.8
! arg x: real(8)[2]
! sources: include/constants_mod.f90
!
! A program in two files: the module constants_mod lives in include/constants_mod.f90
! (given to adgen after this file: `adgen projectile.f90 include/constants_mod.f90`).
! Explicit Euler steps of a projectile with quadratic drag.
subroutine projectile(nsteps, v0, angle, x)
  use constants_mod
  implicit none
  integer, intent(in) :: nsteps
  real(wp), intent(in) :: v0, angle
  real(wp), intent(out) :: x(2)
  real(wp) :: v(2), dt
  integer :: k
  dt = 0.05_wp
  x = 0.0_wp
  v(1) = v0 * cos(angle)
  v(2) = v0 * sin(angle)
  do k = 1, nsteps
    x = x + dt * v
    v(1) = v(1) - dt * friction(v(1))
    v(2) = v(2) - dt * (gravity + friction(v(2)))
  end do
end subroutine projectile
