! adgen-test
! head: smooth4(y r)/(x a)
! arg n: integer = 6
! arg x: real[n] = uniform(0.5, 1.5)
! arg a: real(4) = 0.3
! arg y: real[n]
! arg r: real
! tol: 3e-3
! dot_tol: 1e-5
!
! Single precision throughout: default real (float) arrays and scalars, real(4),
! single-precision literals and intrinsics (sqrt, exp of a float is a float).
subroutine smooth4(n, x, a, y, r)
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: x(n)
  real(4), intent(in) :: a
  real, intent(out) :: y(n), r
  integer :: i
  y(1) = x(1)
  y(n) = x(n)
  do i = 2, n - 1
    y(i) = (1.0 - 2.0 * a) * x(i) + a * (x(i-1) + x(i+1))
  end do
  r = sqrt(sum(y**2)) + exp(-a * x(1))
end subroutine smooth4
