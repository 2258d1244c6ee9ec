! adgen-test
! head: relax(v)/(u, w)
! arg n: integer = 9
! arg u: real(8)[n] = uniform(-1, 1)
! arg w: real(8) = uniform(0.5, 1.5)
! arg v: real(8)[n]
!
! An `!$omp parallel` region whose one statement is an `!$omp do` loop, read as the
! combined `!$omp parallel do`: the tangent and the adjoint keep it parallel (the adjoint
! its backward loop too, the weight's adjoint in parts of each thread's).
subroutine relax(n, u, w, v)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), w
  real(8), intent(out) :: v(n)
  real(8) :: t
  integer :: i
  v(1) = u(1)
  v(n) = u(n)
!$omp parallel private(t) shared(u, v)
!$omp do schedule(static)
  do i = 2, n - 1
    t = 0.5d0 * (u(i - 1) + u(i + 1))
    v(i) = w * sin(t) + (1d0 - w) * u(i)
  end do
!$omp end do
!$omp end parallel
end subroutine relax
