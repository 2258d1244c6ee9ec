! adgen-test
! head: fz_head(y t fz_head)/(x xl a t)
! arg n: integer = 4
! arg t: real(8) = uniform(-1, 1)
! arg y: real(8)[n]
! arg a: real(8) = uniform(-1, 1)
! arg xl: real(8)[0:n-1] = uniform(-1, 1)
! arg x: real(8)[n] = uniform(0.2, 1.5)
! tol: 1e-5
! seed: 92
!
! Minimized from fuzz seed 9600091: a DO loop whose call has `!$AD NOCHECKPOINT` and
! whose local v2, set after the call, is recomputed by the backward sweep instead of
! stored. The directive took no place among the body's backward parts, so the
! recomputation was looked for one statement too late and left out: the backward sweep
! read the last iteration's v2 in every iteration (wrong adjoint of x).
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
contains

  subroutine fz_s1(m, o, alpha, beta, u, gam)
    implicit none
    integer, intent(in) :: m
    real(8), intent(out) :: o(m)
    real(8), intent(in) :: alpha
    real(8), intent(out) :: beta
    real(8), intent(in) :: u(m)
    real(8), intent(in), optional :: gam
    o = sinh(tanh(u))
    beta = 0.25d0 * (alpha * fz_state)
    if (present(gam)) o(1) = o(1) + 0.25d0 * tanh(gam)
  end subroutine fz_s1
end module fz_mod

function fz_head(n, t, y, a, xl, x) result(r)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: t
  real(8), intent(out) :: y(n)
  real(8), intent(in) :: a
  real(8), intent(in) :: xl(0:n-1)
  real(8), intent(in) :: x(n)
  real(8) :: r
  integer :: i
  real(8) :: v2
  real(8) :: sink
  sink = 0.0d0
  y = x(1:n) ** 2
  do i = 1, n, 2
    !$AD NOCHECKPOINT
    call fz_s1(n - 1, y(1:n - 1), x(mod(i, n) + 1), t, x(1:n - 1))
    v2 = 0.6d0 * max(fz_state * x(3), x(mod(i, n) + 1) + x(mod(i, n) + 1))
    sink = 0.5d0 * sink + 0.5d0 * tanh(v2)
  end do
  r = 0.8d0 * (0.8d0 * (fz_coef(2) + y(1)) + 0.5d0 * tanh(sink))
end function fz_head
