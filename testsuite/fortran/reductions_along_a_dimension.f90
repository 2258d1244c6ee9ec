! adgen-test
! head: stats(y e)/(a w)
! arg n: integer = 4
! arg m: integer = 3
! arg a: real(8)[n, m] = uniform(-1, 1)
! arg w: real(8)[m] = uniform(0.5, 1.5)
! arg y: real(8)[m]
! arg e: real(8)
!
! SUM, PRODUCT, MAXVAL and MINVAL with DIM of a matrix: an array with one element per
! column (DIM=1) or per row (DIM=2), in array expressions, with MASK, of a section, and as
! the argument of another reduction.
subroutine stats(n, m, a, w, y, e)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(n, m), w(m)
  real(8), intent(out) :: y(m), e
  real(8) :: r(n), c(m)
  c = sum(a, dim=1)
  r = sum(a * a, 2)
  y = maxval(a, dim=1) + product(a(1:2, :), dim=1) * w
  c = c + sum(a, dim=1, mask=a > 0d0)
  e = sum(r * sin(r)) + sum(c ** 2) + sum(minval(a, 2)) + dot_product(w, sum(a, 1))
end subroutine stats
