! The Fortran BLAS level-1 kernels adgen has built-in rules for (double and single
! precision, positive increments), written plainly for the tests: a program links them as
! it would a BLAS library; adgen does not see them (`link:` in the test header).
double precision function ddot(n, dx, incx, dy, incy)
  implicit none
  integer, intent(in) :: n, incx, incy
  double precision, intent(in) :: dx(*), dy(*)
  integer :: i
  ddot = 0.0d0
  do i = 1, n
    ddot = ddot + dx(1 + (i - 1) * incx) * dy(1 + (i - 1) * incy)
  end do
end function ddot

double precision function dnrm2(n, x, incx)
  implicit none
  integer, intent(in) :: n, incx
  double precision, intent(in) :: x(*)
  integer :: i
  dnrm2 = 0.0d0
  do i = 1, n
    dnrm2 = dnrm2 + x(1 + (i - 1) * incx) ** 2
  end do
  dnrm2 = sqrt(dnrm2)
end function dnrm2

subroutine daxpy(n, da, dx, incx, dy, incy)
  implicit none
  integer, intent(in) :: n, incx, incy
  double precision, intent(in) :: da, dx(*)
  double precision, intent(inout) :: dy(*)
  integer :: i
  do i = 1, n
    dy(1 + (i - 1) * incy) = dy(1 + (i - 1) * incy) + da * dx(1 + (i - 1) * incx)
  end do
end subroutine daxpy

subroutine dscal(n, da, dx, incx)
  implicit none
  integer, intent(in) :: n, incx
  double precision, intent(in) :: da
  double precision, intent(inout) :: dx(*)
  integer :: i
  do i = 1, n
    dx(1 + (i - 1) * incx) = da * dx(1 + (i - 1) * incx)
  end do
end subroutine dscal

subroutine dcopy(n, dx, incx, dy, incy)
  implicit none
  integer, intent(in) :: n, incx, incy
  double precision, intent(in) :: dx(*)
  double precision, intent(out) :: dy(*)
  integer :: i
  do i = 1, n
    dy(1 + (i - 1) * incy) = dx(1 + (i - 1) * incx)
  end do
end subroutine dcopy

real function sdot(n, sx, incx, sy, incy)
  implicit none
  integer, intent(in) :: n, incx, incy
  real, intent(in) :: sx(*), sy(*)
  integer :: i
  sdot = 0.0
  do i = 1, n
    sdot = sdot + sx(1 + (i - 1) * incx) * sy(1 + (i - 1) * incy)
  end do
end function sdot

real function snrm2(n, x, incx)
  implicit none
  integer, intent(in) :: n, incx
  real, intent(in) :: x(*)
  integer :: i
  snrm2 = 0.0
  do i = 1, n
    snrm2 = snrm2 + x(1 + (i - 1) * incx) ** 2
  end do
  snrm2 = sqrt(snrm2)
end function snrm2

subroutine saxpy(n, sa, sx, incx, sy, incy)
  implicit none
  integer, intent(in) :: n, incx, incy
  real, intent(in) :: sa, sx(*)
  real, intent(inout) :: sy(*)
  integer :: i
  do i = 1, n
    sy(1 + (i - 1) * incy) = sy(1 + (i - 1) * incy) + sa * sx(1 + (i - 1) * incx)
  end do
end subroutine saxpy

subroutine sscal(n, sa, sx, incx)
  implicit none
  integer, intent(in) :: n, incx
  real, intent(in) :: sa
  real, intent(inout) :: sx(*)
  integer :: i
  do i = 1, n
    sx(1 + (i - 1) * incx) = sa * sx(1 + (i - 1) * incx)
  end do
end subroutine sscal

subroutine scopy(n, sx, incx, sy, incy)
  implicit none
  integer, intent(in) :: n, incx, incy
  real, intent(in) :: sx(*)
  real, intent(out) :: sy(*)
  integer :: i
  do i = 1, n
    sy(1 + (i - 1) * incy) = sx(1 + (i - 1) * incx)
  end do
end subroutine scopy
