! adgen-test
! head: scores(e)/(x w)
! arg n: integer = 4
! arg m: integer = 3
! arg x: real(8)[n, m] = uniform(-1, 1)
! arg w: real(8)[m] = uniform(0.5, 1.5)
! arg e: real(8)
!
! spread of a vector into the rows or the columns of a matrix (DIM by position and by
! keyword, NCOPIES a variable), of an expression, of a section, and as the argument of a
! reduction: weights broadcast over rows, a column mean taken out of every row.
subroutine scores(n, m, x, w, e)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: x(n, m), w(m)
  real(8), intent(out) :: e
  real(8) :: y(n, m), mu(m), z(m, n)
  mu = sum(x, dim=1) / n
  y = (x - spread(mu, 1, n)) * spread(w ** 2, dim=1, ncopies=n)
  z = spread(sin(x(:, 1)), 1, m) + transpose(y)
  y(1:2, :) = y(1:2, :) + spread(x(2, :), 1, 2)
  e = sum(y ** 2) + sum(z * spread(w, 2, n)) + sum(spread(mu, 2, 3) ** 2)
end subroutine scores
