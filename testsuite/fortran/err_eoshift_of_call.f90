! adgen-test
! head: f(y)/(x)
! expect-error: eoshift of an expression calling a function is not supported
! expect-error-line: 23
!
! eoshift of an expression that calls a function of the program is refused: the function
! would be evaluated at the elements shifted in from beyond the ends.
module soft
  implicit none
contains
  elemental function g(v) result(r)
    real(8), intent(in) :: v
    real(8) :: r
    r = v * v + 1.0d0
  end function g
end module soft

subroutine f(x, y)
  use soft
  implicit none
  real(8), intent(in) :: x(5)
  real(8), intent(out) :: y
  y = sum(eoshift(g(x), 1) * x)
end subroutine f
