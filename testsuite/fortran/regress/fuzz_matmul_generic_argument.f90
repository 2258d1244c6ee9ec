! adgen-test
! head: fz_head(y z s t)/(x z a t)
! arg n: integer = 4
! arg nc: integer = 3
! arg z: real(8)[n, nc] = uniform(-1, 1)
! arg x: real(8)[n] = uniform(0, 1)
! arg a: real(8) = uniform(-1, 1)
! arg s: real(8)
! arg t: real(8) = uniform(-1, 1)
! arg y: real(8)[n]
! tol: 1e-5
! seed: 578
!
! Fuzz seed 11313577: matmul as an argument of a generic interface's reference. The
! specific procedure is chosen by the arguments' ranks before the product goes to its
! temporary; matmul's rank was asked of its operands' shapes, which refused it.
!
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
  interface fz_g1
    module procedure fz_f1
  end interface fz_g1
contains

  function fz_f1(m, u, v, alpha) result(r)
    implicit none
    integer, intent(in) :: m
    real(8), intent(in) :: u(m)
    real(8), intent(in) :: v(0:m - 1)
    real(8), intent(in) :: alpha
    real(8) :: r
    real(8) :: sink
    sink = 0.0d0
    r = tan(0.5d0 * tanh(u(3 - 1 + maxloc(u(3:m), 1)))) + fz_coef(2) + 0.5d0 * tanh(sink)
  end function fz_f1
end module fz_mod

subroutine fz_head(n, nc, z, x, a, s, t, y)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: nc
  real(8), intent(inout) :: z(n, nc)
  real(8), intent(in) :: x(n)
  real(8), intent(in) :: a
  real(8), intent(out) :: s
  real(8), intent(inout) :: t
  real(8), intent(out) :: y(n)
  y = x(1:n)
  s = x(3) / (2.0d0 + sin(fz_gain))
  fz_state = 0.5d0 * fz_state + 0.5d0 * (1.0d0 + (0.75d0 * fz_g1(n, matmul(z, z(2:4, 2)), x(1:n), &
      & x(3) + 0.05d0)) ** 2) ** 0.5d0
end subroutine fz_head
