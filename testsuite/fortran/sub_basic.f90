! adgen-test
! head: upwind_step(unew)/(u c)
! arg n: integer = 8
! arg u: real(8)[n] = uniform(0.5, 1.5)
! arg c: real(8) = 0.7
! arg dt: real(8) = 0.1
! arg unew: real(8)[n]
!
! One explicit upwind step of u_t + c u_x = 0 on a periodic grid: a plain
! subroutine with explicit-shape arrays, intent, scalars passed by reference.
subroutine upwind_step(n, u, c, dt, unew)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), c, dt
  real(8), intent(out) :: unew(n)
  integer :: i
  real(8) :: dx
  dx = 1.0d0 / n
  unew(1) = u(1) - c * dt / dx * (u(1) - u(n))
  do i = 2, n
    unew(i) = u(i) - c * dt / dx * (u(i) - u(i-1)) + 0.01d0 * u(i)**2
  end do
end subroutine upwind_step
