! adgen-test
! head: fit(loss)/(w x)
! arg n: integer = 6
! arg w: real(8)[2*n] = uniform(-1, 1)
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg r: real(8)[2*n]
! arg loss: real(8)
! link: include/blas_level1.f90
!
! Calls of Fortran BLAS level-1 kernels, which adgen does not see the code of and
! differentiates by its built-in rules: strided copies (from w, and into r, whose elements
! between those written keep their values and adjoints), a strided norm, dot products, an
! axpy into an array read afterwards and a scaling, in a loop of sweeps (the Fortran twin
! of testsuite/c/blas_kernels.c).
subroutine fit(n, w, x, r, loss)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: w(2 * n), x(n)
  real(8), intent(out) :: r(2 * n), loss
  double precision, external :: ddot, dnrm2
  real(8) :: a, nrm
  integer :: k
  call dcopy(n, w, 2, r, 1)                 ! the odd elements of w
  call dcopy(n / 2, x, 2, r(2), 2)          ! over r(2), r(4), ...: r(3) keeps w(5)
  do k = 1, 3
    a = ddot(n, r, 1, x, 1) / n
    call daxpy(n, -0.3d0 * a, x, 1, r, 1)
    call dscal(n, 1.0d0 + 0.1d0 * sin(a), r, 1)
  end do
  nrm = dnrm2(n, w(2), 2)                   ! the even elements of w
  loss = ddot(n, r, 1, r, 1) + nrm * a
end subroutine fit
