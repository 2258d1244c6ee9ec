! adgen-test
! head: f(y)/(x)
! arg n: integer = 3
! arg x: real(8)[n] = [0.9d0, 0.4d0, 0.8d0]
! arg y: real(8)
!
! The value of an array expression an associate name stands for is an array of the
! construct's own, freed where the construct ends, and by a GOTO leaving it (here taken,
! and one not taken), before the jump. Before: "a GOTO out of an ASSOCIATE construct that
! names the value of an array expression is not supported".
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(out) :: y
  real(8), intent(in) :: x(n)
  y = 0d0
  associate (v => 2d0 * x)
    y = v(1) * v(n)
    if (y > 1d0) goto 10
    y = y + sum(v)
  end associate
10 continue
  associate (v => x ** 2)
    y = y + v(2)
    if (y > 1d3) goto 20
    y = y * sum(v)
  end associate
20 continue
  y = y * 2d0
end subroutine f
