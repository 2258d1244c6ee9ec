! adgen-test
! head: f(b)/(a x)
! arg n: integer = 4
! arg a: real(8) = 0.7
! arg x: real(8)[n]
! arg b: real(8)[n]
!
! spread of a scalar, an array of NCOPIES copies of its value (it was refused): of a
! dummy, of an expression holding reductions, of an element, with keywords, beside
! spread of an array, into an allocatable array, as an argument and in size().
subroutine f(n, a, x, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(out) :: b(n)
  real(8) :: m(n, 3)
  real(8), allocatable :: w(:)
  b = spread(a, 1, n) * 2d0 + x
  b = b * spread(maxval(x) * a, 1, n)
  m = spread(b, 2, 3)
  b = b + sum(m, dim=2) + spread(sum(x**2), 1, n) - spread(x(2), dim=1, ncopies=n)
  w = spread(a * x(1), 1, n)
  call twice(n, spread(a * a, 1, n), m(:, 1))
  b = b + w * m(:, 1) + size(spread(a, 1, n + 1))
contains
  subroutine twice(k, u, v)
    integer, intent(in) :: k
    real(8), intent(in) :: u(k)
    real(8), intent(inout) :: v(k)
    v = 2 * u + v
  end subroutine
end subroutine f
