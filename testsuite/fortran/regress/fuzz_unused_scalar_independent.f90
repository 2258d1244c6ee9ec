! regress (a fuzz failure, fixed): the adjoint of an independent scalar that has no differentiable influence on the dependents (never read, or read only in conditions and integer trip counts, as in the fuzz programs) is left as it was (garbage) by fz_head_b; a pure input's adjoint must be set (to 0)
! adgen-test
! head: fz_head(y)/(x a)
! arg n: integer = 4
! arg a: real(8) = uniform(-1, 1)
! arg x: real(8)[n] = uniform(-2, 2)
! arg y: real(8)[n]
!
subroutine fz_head(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  y = log(1.0d0 + x ** 2)
end subroutine fz_head
