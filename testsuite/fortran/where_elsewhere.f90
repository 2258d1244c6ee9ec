! adgen-test
! head: limiter(y)/(x s)
! arg n: integer = 8
! arg x: real(8)[n] = [-1.7d0, -0.9d0, -0.3d0, 0.2d0, 0.6d0, 1.1d0, 1.6d0, 2.4d0]
! arg s: real(8) = 0.9
! arg y: real(8)[n]
!
! WHERE / ELSEWHERE (with a masked ELSEWHERE) and a one-line WHERE statement.
subroutine limiter(n, x, s, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), s
  real(8), intent(out) :: y(n)
  where (x < -1.0d0)
    y = -s + 0.1d0 * (x + 1.0d0)
  elsewhere (x > 1.0d0)
    y = s * sqrt(x)
  elsewhere
    y = s * x * (1.5d0 - 0.5d0 * x**2)
  end where
  where (abs(x) < 0.5d0) y = y + x**3
end subroutine limiter
