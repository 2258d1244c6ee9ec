! adgen-test
! head: weights(e)/(x c)
! arg n: integer = 3
! arg x: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = 0.7
! arg e: real(8)
!
! Array constructors inside expressions: a stencil's weights, values of variables, in a
! reduction, an elemental expression, a dot_product, a call's argument and a subscript; in
! the tests of IF, ELSE IF and DO WHILE, a WHERE mask and a WHERE assignment, a SELECT
! CASE selector and DO bounds.
module stencil
  implicit none
contains
  subroutine apply(m, w, u, r)
    integer, intent(in) :: m
    real(8), intent(in) :: w(m), u(m)
    real(8), intent(out) :: r
    r = sum(w * u)
  end subroutine apply
end module stencil

subroutine weights(n, x, c, e)
  use stencil
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), c
  real(8), intent(out) :: e
  real(8) :: v(3), r
  integer :: k(2), i
  e = sum(x * [0.25d0, 0.5d0, 0.25d0]) + dot_product([c, 2d0 * c, x(1)], x)
  v = x * (/ c, c * c, 1d0 /) + sin([x(3), x(2), x(1)])
  call apply(3, [x(2), c, 0.5d0], v, r)
  k = [3, 1]
  e = e + r + v(k(1)) * maxval([x(1), x(2) * c]) + sum([x(2), x(3)] ** 2)
  if (maxval([x(1), x(2)]) > 0.5d0) then
    e = e * 1.5d0
  else if (minval([x(3), c]) < 0.1d0) then
    e = e + c
  end if
  if (sum([x(1), 1d0]) > 0d0) e = e + x(1) ** 2
  k(1) = 0
  do while (sum([dble(k(1)), 0.5d0]) < 2d0)
    k(1) = k(1) + 1
    e = e + 0.1d0 * x(k(1))
  end do
  where ([x(1), c, x(3)] > 0d0)
    v = v * sin([x(2), x(1), c])
  elsewhere
    v = cos(v) + [c, 0.5d0, x(1)]
  end where
  where (v + [0d0, 0.1d0, 0.2d0] > 0.3d0) v = 0.5d0 * v
  e = e + sum(v ** 2)
  select case (maxloc([x(1), x(2), x(3)], 1))
  case (1)
    e = e + x(1)
  case default
    e = e - c * x(2)
  end select
  do i = 1, int(maxval([2d0, 3d0 * c]))
    e = e + 0.1d0 * x(i) ** 2
  end do
end subroutine weights
