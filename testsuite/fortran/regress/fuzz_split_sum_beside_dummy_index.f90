! regress (a fuzz failure, fixed, seed 6000078): the backward loop of w1 = 0.3d0*(u(m-2) - (p - (-0.2d0 - p(2)))) split the sum into pb(2) in two parts and left the sum into ub(m-2) (an index read through the dummy m) in order beside them, which gcc 12 vectorizes wrongly; the sum at ub(m-2) is now split too, and a sum at a place not known fixed keeps the loop whole
! adgen-test
! head: fz_head(y z)/(x xl z a)
! arg n: integer = 6
! arg nc: integer = 3
! arg z: real(8)[n, nc] = uniform(-1, 1)
! arg x: real(8)[n] = uniform(0, 1)
! arg xl: real(8)[-1:n-2] = uniform(-1, 1)
! arg a: real(8) = uniform(-1, 1)
! arg y: real(8)[n]
! tol: 1e-5
! seed: 79
!
module fz_mod
  implicit none
contains

  subroutine fz_s1(m, u, v, o, p)
    implicit none
    integer, intent(in) :: m
    real(8), intent(in) :: u(m)
    real(8), intent(in) :: v(0:m - 1)
    real(8), intent(inout) :: o(m)
    real(8), intent(out) :: p(m)
    real(8) :: v1
    real(8) :: w1(0:m - 1)
    real(8) :: sink
    sink = 0.0d0
    p = exp(u)
    v1 = cosh(tanh(0.01d0))
    w1 = 0.3d0 * (u(m - 2) - (p(1:m) - ((-0.2d0) - p(2))))
    sink = 0.5d0 * sink + 0.5d0 * tanh(v1)
    sink = 0.5d0 * sink + 0.5d0 * tanh(0.1d0 * sum(w1))
    o(1) = 0.5d0 * o(1) + 0.5d0 * tanh(sink)
  end subroutine fz_s1
end module fz_mod

subroutine fz_head(n, nc, z, x, xl, a, y)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: nc
  real(8), intent(inout) :: z(n, nc)
  real(8), intent(in) :: x(n)
  real(8), intent(in) :: xl(-1:n-2)
  real(8), intent(in) :: a
  real(8), intent(out) :: y(n)
  y = z(:, 2)
  call fz_s1(nc, x(n - nc + 1:n) ** 2, x(n - nc + 1:n), y(n - nc + 1:n), z(1:nc, nc))
end subroutine fz_head
