! adgen-test
! head: openmp_jacobi(unew)/(u, f, c)
! arg n: integer = 9
! arg u: real(8)[n] = uniform(-1, 1)
! arg f: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = uniform(0.5, 1.5)
! arg unew: real(8)[n]
!
! A Jacobi sweep under `!$omp parallel do`: each iteration writes its own element of unew
! from its neighbours in u and a coefficient c that every iteration reads. The adjoint's
! backward loop runs in parallel too, as C's (testsuite/c/openmp_jacobi.c).
subroutine openmp_jacobi(n, u, f, c, unew)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), f(n), c
  real(8), intent(out) :: unew(n)
  real(8) :: t
  integer :: i
  !$omp parallel do private(t) schedule(static)
  do i = 2, n - 1
    t = 0.5d0 * (u(i-1) + u(i+1))
    unew(i) = t + c * f(i) * sin(u(i)) + 0.1d0 * t * t
  end do
  !$omp end parallel do
  unew(1) = u(1) + f(1)
  unew(n) = u(n) - f(n)
end subroutine openmp_jacobi
