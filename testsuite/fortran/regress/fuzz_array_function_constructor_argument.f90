! fuzz seed 11200162, minimized: array section, **; fails with: adgen-reverse: unsupported expression (Array_Constructor: [xl(_ - N), _, xl(N)])
! adgen-test
! head: fz_head(y)/(x xl a)
! arg n: integer = 6
! arg xl: real(8)[-1:n-2] = uniform(-1, 1)
! arg a: real(8) = uniform(-1, 1)
! arg x: real(8)[n] = uniform(-2, 2)
! arg y: real(8)[n]
! tol: 1e-5
! seed: 163
!
! A function returning an array given an array constructor: the constructor's temporary
! must be set before the function's call, which goes before the statement (was refused:
! unsupported expression).
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
contains

  function fz_s2(m, v, u) result(o)
    implicit none
    integer, intent(in) :: m
    real(8), intent(in) :: v(0:m - 1)
    real(8) :: o(m)
    real(8), intent(in) :: u(m)
    o = (1.0d0 + u ** 2) ** 0.5d0
  end function fz_s2
end module fz_mod

subroutine fz_head(n, xl, a, x, y)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: xl(-1:n-2)
  real(8), intent(in) :: a
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: v1
  y = log(1.0d0 + x(:) ** 2)
  v1 = max(log(1.0d0 + fz_coef(2) ** 2), xl(-1 - 1 + maxloc(xl(-1:n - 3), 1)))
  y(4:6) = fz_s2(3, [xl(n - 7), v1, xl(3)], xl(0:2))
end subroutine fz_head
