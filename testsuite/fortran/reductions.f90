! adgen-test
! head: stats(r)/(a x)
! arg n: integer = 3
! arg a: real(8)[n, n] = uniform(-1, 1)
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg r: real(8)[6]
!
! Array intrinsics: sum, product, maxval, minval, dot_product, matmul (matrix-vector
! and matrix-matrix), size; reductions over sections and array expressions.
subroutine stats(n, a, x, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), x(n)
  real(8), intent(out) :: r(6)
  real(8) :: y(n), b(n, n)
  y = matmul(a, x)
  b = matmul(a, a)
  r(1) = sum(y) + dot_product(x, y)
  r(2) = product(x) * size(x)
  r(3) = maxval(y) + minval(y)
  r(4) = sum(b) + sum(x(2:n)**2)
  r(5) = dot_product(a(:, 2), x) / size(a, 1) + sum(a(2, :) * x)
  r(6) = maxval(abs(x)) * sum(b(:, 1))
end subroutine stats
