! regress (a fuzz failure, fixed): a local the program sets and never reads (v1) became a C local gcc -Wall -Werror refused in both outputs (-Wunused-but-set-variable); the generated functions now mark such locals used with (void)
! adgen-test
! head: fz_head(y z)/(x xl z a)
! arg n: integer = 4
! arg nc: integer = 4
! arg z: real(8)[n, nc] = uniform(-1, 1)
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
! arg xl: real(8)[0:n-1] = uniform(-1, 1)
! arg a: real(8) = uniform(-1, 1)
! tol: 1e-5
! seed: 118
!
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
end module fz_mod

subroutine fz_head(n, nc, z, x, y, xl, a)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: nc
  real(8), intent(inout) :: z(n, nc)
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8), intent(in) :: xl(0:n-1)
  real(8), intent(in) :: a
  real(8) :: v1
  y = x
  v1 = sqrt(2.0d0 + tan(0.5d0 * tanh(z(4, 4))) ** 2)
end subroutine fz_head
