! adgen-test
! head: lotka_volterra(y)/(y p)
! arg nsteps: integer = 25
! arg y: real(8)[2] = uniform(0.8, 1.2)
! arg p: real(8)[4] = [1.1d0, 0.4d0, 0.4d0, 0.1d0]
! arg h: real(8) = 0.05
!
! The classical Runge-Kutta scheme (RK4) for the Lotka-Volterra equations: the
! right-hand side is a module subroutine, the stages whole-array expressions.
module lv_model
  implicit none
contains
  subroutine rhs(y, p, f)
    real(8), intent(in) :: y(2), p(4)
    real(8), intent(out) :: f(2)
    f(1) = p(1) * y(1) - p(2) * y(1) * y(2)
    f(2) = p(4) * y(1) * y(2) - p(3) * y(2)
  end subroutine rhs
end module lv_model

subroutine lotka_volterra(nsteps, y, p, h)
  use lv_model
  implicit none
  integer, intent(in) :: nsteps
  real(8), intent(inout) :: y(2)
  real(8), intent(in) :: p(4), h
  real(8) :: k1(2), k2(2), k3(2), k4(2)
  integer :: step
  do step = 1, nsteps
    call rhs(y, p, k1)
    call rhs(y + 0.5d0 * h * k1, p, k2)
    call rhs(y + 0.5d0 * h * k2, p, k3)
    call rhs(y + h * k3, p, k4)
    y = y + h / 6.0d0 * (k1 + 2.0d0 * k2 + 2.0d0 * k3 + k4)
  end do
end subroutine lotka_volterra
