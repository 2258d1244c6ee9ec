! adgen-test
! head: f(y)/(x)
! expect-error: ASSOCIATE of 'c' with a CHARACTER array expression is not supported
! expect-error-line: 13
!
! An associate name for a CHARACTER array expression would need an array of strings of
! its own (one for a numeric array expression is a temporary array).
subroutine f(x, y)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  character(len=4) :: names(2) = ['ab', 'cd']
  associate (c => names // 'x')
    y = x * len(c(1))
  end associate
end subroutine f
