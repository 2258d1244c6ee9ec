! adgen-test
! head: outer(e)/(x c)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = 0.4
! arg e: real(8)
!
! FORALL statements and a FORALL construct: several indices, a step, a mask, an index
! named like a variable of the procedure (FORALL's own, the variable keeps its value),
! assignments in turn, and assignments that read the element they assign (w(i, :) too).
subroutine outer(n, x, c, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), c
  real(8), intent(out) :: e
  real(8) :: w(n, n), v(n), u(n)
  integer :: i, j
  i = 3
  w = 0d0
  forall (i = 1:n, j = 1:n:2, x(i) * x(j) > -0.2d0) w(i, j) = c * x(i) * sin(x(j))
  forall (i = 2:n)
    v(i) = x(i - 1) * x(i)
    u(i) = 0.5d0 * v(i) + w(i, 1)
  end forall
  v(1) = 0d0
  u(1) = x(i)
  forall (j = 1:n) u(j) = u(j) * j + v(j) ** 2
  forall (j = 1:n, x(j) > 0d0) w(j, :) = w(j, :) * x(j)
  e = sum(w ** 2) + sum(v * u)
end subroutine outer
