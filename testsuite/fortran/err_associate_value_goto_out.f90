! adgen-test
! head: f(y)/(x)
! expect-error: a GOTO out of an ASSOCIATE construct that names the value of an array expression is not supported
! expect-error-line: 17
!
! The value of an array expression an associate name stands for is an array of the
! construct's own, freed where the construct ends, or where EXIT, CYCLE or RETURN leave
! it; a GOTO leaving it is refused rather than keep it allocated.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  y = 0d0
  associate (v => 2d0 * x)
    y = v(1) * v(n)
    if (y > 1d0) goto 10
    y = y + sum(v)
  end associate
10 continue
  y = y * 2d0
end subroutine f
