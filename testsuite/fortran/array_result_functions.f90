! adgen-test
! head: f(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
!
! Functions that return arrays (`result(r)` with `r(n)`, the function's own name with
! `cross(3)`, a shape from size(v)): each is a subroutine with its result as one more
! dummy argument, and a reference to it in an expression is a call before the statement
! into a temporary array of the result's shape (the innermost references first).
! References in assignments, as arguments of other such functions and of sum, and in an
! IF condition; array constructors as their arguments.
module m
  implicit none
contains
  function twice(n, x) result(r)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8) :: r(n)
    r = 2d0 * x * x
  end function twice

  function cross(a, b)
    real(8), intent(in) :: a(3), b(3)
    real(8) :: cross(3)
    cross(1) = a(2) * b(3) - a(3) * b(2)
    cross(2) = a(3) * b(1) - a(1) * b(3)
    cross(3) = a(1) * b(2) - a(2) * b(1)
  end function cross

  function scaled(v, c) result(w)
    real(8), intent(in) :: v(:), c
    real(8) :: w(size(v))
    w = c * sin(v)
  end function scaled
end module m

subroutine f(n, x, y)
  use m
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: c(3)
  y = twice(n, x) + 1d0
  c = cross(x(1:3), y(2:4))
  y(1:3) = y(1:3) + cross(c, twice(3, x(2:4)))
  y = y * scaled(x, sum(twice(n, y)))
  if (sum(scaled(y, 2d0)) > 0d0) y(1) = y(1) * 3d0
  y(2:4) = y(2:4) + cross([1d0, -2d0, 0.5d0], x(1:3)) * cross(x(2:4), [x(1), 1d0, y(1)])
end subroutine f
