! adgen-test
! head: kalman(x p)/(x p z)
! arg n: integer = 3
! arg x: real(8)[n] = uniform(-1, 1)
! arg p: real(8)[n*n] = uniform(0.5, 1)
! arg z: real(8)[n] = uniform(-1, 1)
!
! matmul inside expressions, as a Kalman filter writes it: added to a vector, nested in
! another matmul and under transpose, scaled, in a reduction, and assigned to an array it
! reads (x = matmul(f, x)). Each product is computed into a temporary before the
! statement. They were refused (matmul had to be a whole right-hand side, and not read
! the array assigned).
subroutine kalman(n, x, p, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), p(n, n)
  real(8), intent(in) :: z(n)
  real(8) :: f(n, n), k(n, n), r
  integer :: i, j
  do j = 1, n
    do i = 1, n
      f(i, j) = 0.1d0 * (i - j)
    end do
    f(j, j) = 1.0d0
  end do
  x = matmul(f, x)
  p = matmul(matmul(f, p), transpose(f)) + 0.01d0 * p
  k = 0.5d0 * p
  x = x + matmul(k, z - x)
  r = sum(matmul(p, x) * x)
  p = p - 0.1d0 * r * matmul(k, transpose(p))
end subroutine kalman
