! adgen-test
! head: f(y)/(x y)
! expect-error: ASSOCIATE of 'v' with an array expression is not supported
! expect-error-line: 12
!
! An associate name for an array-valued expression would need an array of its own.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), y
  y = 0d0
  associate (v => 2d0 * x)
    y = v(1) * v(n)
  end associate
end subroutine f
