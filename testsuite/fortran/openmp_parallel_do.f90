! adgen-test
! head: smooth(v, energy)/(u, w)
! arg n: integer = 12
! arg u: real(8)[n] = uniform(-1, 1)
! arg w: real(8) = uniform(0.5, 1.5)
! arg v: real(8)[n]
! arg energy: real(8) = 0
!
! OpenMP `!$omp parallel do` loops, which the tangent keeps parallel: a smoothing sweep
! with private scalars and an array expression, and a sum (reduction). Built without
! -fopenmp the directives are comments: the test programs check the derivatives serially.
subroutine smooth(n, u, w, v, energy)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), w
  real(8), intent(out) :: v(n), energy
  real(8) :: t, s, pair(2)
  integer :: i
  v(1) = u(1)
  v(n) = u(n)
  !$omp parallel do private(t, pair) schedule(static)
  do i = 2, n - 1
    pair = u(i-1:i+1:2) * w
    t = 0.25d0 * (pair(1) + pair(2)) + 0.5d0 * u(i)
    v(i) = sin(t) * w + t
  end do
  !$omp end parallel do
  s = 0.0d0
  !$omp parallel do reduction(+:s)
  do i = 1, n
    s = s + v(i) * v(i)
  end do
  !$omp end parallel do
  energy = sqrt(s + 1.0d0)
end subroutine smooth
