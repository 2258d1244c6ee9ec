! regress (a fuzz failure, fixed): the adjoint of o(2:m) = o(1:m - 1) in fz_s1 declares double tmpb[*m - 1]; the reverse sweep calls fz_s1_bwd(&arg, ...) with the call's temporary arg (= n - 2) initialised to 0 and set only in the forward sweep; the call sits in a case the constant selector never takes, so after inlining gcc sees arg = 0 and *m - 1 = -1
! adgen-test
! head: fz_head(y z s)/(x xl z)
! arg n: integer = 6
! arg nc: integer = 4
! arg s: real(8)
! arg z: real(8)[n, nc] = uniform(-1, 1)
! arg xl: real(8)[-1:n-2] = uniform(-1, 1)
! arg y: real(8)[n]
! arg x: real(8)[n] = uniform(-1, 1)
! tol: 1e-5
! seed: 12
!
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
contains

  subroutine fz_s1(m, u, o, v)
    implicit none
    integer, intent(in) :: m
    real(8), intent(in) :: u(m)
    real(8), intent(out) :: o(m)
    real(8), intent(in) :: v(0:m - 1)
    o = max(u, fz_gain)
    o(2:m) = o(1:m - 1)
  end subroutine fz_s1
end module fz_mod

subroutine fz_head(n, nc, s, z, xl, y, x)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: nc
  real(8), intent(out) :: s
  real(8), intent(inout) :: z(n, nc)
  real(8), intent(in) :: xl(-1:n-2)
  real(8), intent(out) :: y(n)
  real(8), intent(in) :: x(n)
  real(8) :: sink
  sink = 0.0d0
  y = z(1:n, 3)
  s = 0.8d0 * (y(n - 5) - xl(0))
  select case (int(2.0d0 + 2.0d0 * tanh(log(1.0d0 + fz_coef(1) ** 2))))
  case (0)
    call fz_s1(n - 2, x(3:n), y(1:n - 2), x(3:n))
  case default
  end select
  y(n - 5) = 0.5d0 * y(n - 5) + 0.5d0 * tanh(sink)
end subroutine fz_head
