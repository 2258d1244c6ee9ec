! fuzz seed 5000025, minimized: DO loop running down with CYCLE, array section; gcc -O3 reported
! an overflow at an iteration the loop cannot reach (-Waggressive-loop-optimizations), in the
! tangent's index y[*n + 1 - i - 1].
! adgen-test
! head: fz_head(y z t)/(x z t)
! arg n: integer = 4
! arg nc: integer = 2
! arg t: real(8) = uniform(-1, 1)
! arg x: real(8)[n] = uniform(-2, 2)
! arg b: real(8) = 0.75
! arg y: real(8)[n]
! arg z: real(8)[n, nc] = uniform(-1, 1)
! tol: 1e-5
! seed: 26
!
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
end module fz_mod

subroutine fz_head(n, nc, t, x, b, y, z)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: nc
  real(8), intent(inout) :: t
  real(8), intent(in) :: x(n)
  real(8), intent(in) :: b
  real(8), intent(out) :: y(n)
  real(8), intent(inout) :: z(n, nc)
  integer :: i
  y = z(:, nc - 1) * sin(z(2, nc))
  y(1:n - 1) = 0.5d0 * exp(tanh(y(2:n)))
  do i = n - 1, 1, -1
    if (y(n - 3) * z(4, nc - 1) > 0.04d0 .and. mod(i, 2) == 1) cycle
    z(i, mod(i, nc) + 1) = y(n + 1 - i)
  end do
end subroutine fz_head
