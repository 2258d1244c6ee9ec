! adgen-test
! head: fit(loss)/(w x)
! arg n: integer = 6
! arg w: real(4)[2*n] = uniform(-1, 1)
! arg x: real(4)[n] = uniform(0.5, 1.5)
! arg r: real(4)[2*n]
! arg loss: real(4)
! link: include/blas_level1.f90
! tol: 2e-3
! dot_tol: 1e-5
!
! The single-precision Fortran BLAS level-1 kernels (sdot, snrm2, saxpy, sscal, scopy), by
! adgen's built-in rules: the single-precision twin of blas_kernels.f90. Finite
! differences in single precision are coarse, hence the relaxed tolerances.
subroutine fit(n, w, x, r, loss)
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: w(2 * n), x(n)
  real, intent(out) :: r(2 * n), loss
  real, external :: sdot, snrm2
  real :: a, nrm
  integer :: k
  call scopy(n, w, 2, r, 1)                 ! the odd elements of w
  call scopy(n / 2, x, 2, r(2), 2)          ! over r(2), r(4), ...: r(3) keeps w(5)
  do k = 1, 3
    a = sdot(n, r, 1, x, 1) / n
    call saxpy(n, -0.3 * a, x, 1, r, 1)
    call sscal(n, 1.0 + 0.1 * sin(a), r, 1)
  end do
  nrm = snrm2(n, w(2), 2)                   ! the even elements of w
  loss = sdot(n, r, 1, r, 1) + nrm * a
end subroutine fit
