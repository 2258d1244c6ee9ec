! adgen-test
! head: weights(e)/(x c)
! arg n: integer = 3
! arg x: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = 0.7
! arg e: real(8)
!
! Array constructors inside expressions: a stencil's weights, values of variables, in a
! reduction, an elemental expression, a dot_product, a call's argument and a subscript.
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
  integer :: k(2)
  e = sum(x * [0.25d0, 0.5d0, 0.25d0]) + dot_product([c, 2d0 * c, x(1)], x)
  v = x * (/ c, c * c, 1d0 /) + sin([x(3), x(2), x(1)])
  call apply(3, [x(2), c, 0.5d0], v, r)
  k = [3, 1]
  e = e + r + v(k(1)) * maxval([x(1), x(2) * c]) + sum([x(2), x(3)] ** 2)
end subroutine weights
