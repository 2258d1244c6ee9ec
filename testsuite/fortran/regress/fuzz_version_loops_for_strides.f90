! fuzz seed 11310021, minimized: DO WHILE, array section, module variable, **; fails with: gcc-O3-reverse: iteration N invokes undefined behavior [-Werror=aggressive-loop-optimizations]
! adgen-test
! head: fz_head(y z s t)/(x z a t)
! arg n: integer = 4
! arg nc: integer = 4
! arg z: real(8)[n, nc] = uniform(-1, 1)
! arg t: real(8) = uniform(-1, 1)
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
! arg s: real(8)
! arg a: real(8) = uniform(-1, 1)
! tol: 1e-5
! seed: 22
!
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
end module fz_mod

subroutine fz_head(n, nc, z, t, x, y, s, a)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: nc
  real(8), intent(inout) :: z(n, nc)
  real(8), intent(inout) :: t
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8), intent(out) :: s
  real(8), intent(in) :: a
  integer :: kw1
  y = log(1.0d0 + x(1:n) ** 2)
  s = min(2.5d0, t)
  kw1 = 1
  do while (kw1 <= n)
    y(1:n - 1) = log(1.0d0 + (x(1:n - 1) * z(n + 1 - kw1, nc - 1 - (n - 1) + 1:nc - 1)) ** 2)
    y(n - 1 - (nc - 1) + 1:n - 1) = sin(y(2:nc))
    kw1 = kw1 + 2
  end do
end subroutine fz_head
