! regress (a fuzz failure, fixed): a module function with an automatic local array w(m) that only a dead store writes; its backward routine fz_f2_bwd(int *m, ...) keeps the parameter m but drops every use of it
! adgen-test
! head: fz_head(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
!
module fz_mod
  implicit none
contains
  function fz_f2(m, alpha, u) result(r)
    implicit none
    integer, intent(in) :: m
    real(8), intent(in) :: alpha
    real(8), intent(in) :: u(m)
    real(8) :: r
    real(8) :: w(m)
    w = u
    r = u(2) * alpha
  end function fz_f2
end module fz_mod

subroutine fz_head(n, x, y)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  y = x
  y(1) = fz_f2(n, x(3), x)
end subroutine fz_head
