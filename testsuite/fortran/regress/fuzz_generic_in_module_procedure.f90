! fuzz seed 11200803, minimized: NOCHECKPOINT, array section, subroutine call, function call, **; fails with: adgen-reverse: call to unknown external function '_': adgen cannot see its body. Add its source file to the command line, or, if it carries no derivative, mark it inactive wit
! adgen-test
! head: fz_head(y z fz_head)/(x z)
! arg n: integer = 7
! arg nc: integer = 3
! arg x: real(8)[n] = uniform(0, 1)
! arg z: real(8)[n, nc] = uniform(-1, 1)
! arg b: real(8) = 0.75
! arg y: real(8)[n]
! arg c: real(8)[n]
! tol: 1e-5
! seed: 804
!
! A generic interface of the module referenced in one of the module's own procedures:
! the procedure's scope did not see the module's generics (an unknown external 'fz_g1').
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

  function fz_f1(m, u) result(r)
    implicit none
    integer, intent(in) :: m
    real(8), intent(in) :: u(m)
    real(8) :: r
    real(8) :: sink
    sink = 0.0d0
    r = fz_gain + fz_gain + 0.5d0 * tanh(sink)
  end function fz_f1

  subroutine fz_s2(m, o, u, alpha, mode, gam)
    implicit none
    integer, intent(in) :: m
    real(8), intent(out) :: o(m)
    real(8), intent(in) :: u(m)
    real(8), intent(in) :: alpha
    character(len=*), intent(in) :: mode
    real(8), intent(in), optional :: gam
    o = (1.0d0 + u ** 2) ** 1.5d0
    if (present(gam)) o(1) = o(1) + 0.25d0 * tanh(gam)
    o(m - 2) = fz_g1(3, u(1:3))
  end subroutine fz_s2
end module fz_mod

function fz_head(n, nc, x, z, b, y, c) result(r)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: nc
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: z(n, nc)
  real(8), intent(in) :: b
  real(8), intent(out) :: y(n)
  real(8), intent(in) :: c(n)
  real(8) :: r
  y = c(1:n)
  !$AD NOCHECKPOINT
  call fz_s2(n - 1, y(2:n), c(2:n), x(2), 'upwind ', gam=c(2))
  r = b + z(3, 1)
end function fz_head
