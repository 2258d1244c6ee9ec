! adgen-test
! head: matrix_fit(r)/(a b)
! arg n: integer = 3
! arg a: real(8)[n*n] = uniform(-1, 1)
! arg b: real(8)[n] = uniform(-1, 1)
! arg r: real(8)[n+1]
!
! transpose (in an array assignment, in an expression, as an argument of matmul and of a
! reduction) and norm2, with matmul, minval and sum.
subroutine matrix_fit(n, a, b, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), b(n)
  real(8), intent(out) :: r(n + 1)
  real(8) :: c(n, n), t(n, n), v(n)
  c = matmul(a, transpose(a))
  t = 0.5d0 * (transpose(c) + a)
  v = matmul(transpose(t), b)
  v = v + 0.5d0 * b
  r(1:n) = v / (1d0 + norm2(v)) + minval(abs(b)) * b
  r(n + 1) = sum(transpose(t) * a) + norm2(c)
end subroutine matrix_fit
