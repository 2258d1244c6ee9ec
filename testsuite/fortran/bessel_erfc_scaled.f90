! adgen-test
! head: special(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = {0.4d0, 1.7d0, 3.2d0, 8.5d0, 14.0d0}
! arg y: real(8)[n]
!
! Fortran 2008's Bessel functions of the first and second kind (orders 0, 1 and n,
! and GNU's dbesj0 name) and erfc_scaled, exp(x*x) * erfc(x), in double and single
! precision: the Bessel functions are POSIX's j0 ... yn, which <math.h> does not declare
! under -std=c99; erfc_scaled is computed where erfc(x) underflows (x = 14 here, and in
! single precision from 9) as gfortran's is. Before: "intrinsic 'bessel_j0' is not
! supported".
subroutine special(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(4) :: s
  integer :: i
  do i = 1, n
    s = real(x(i), 4)
    y(i) = bessel_j0(x(i)) + x(i) * bessel_j1(x(i)) + bessel_jn(3, x(i)) + &
           0.1d0 * (bessel_y0(x(i)) + bessel_y1(x(i)) + bessel_yn(2, x(i))) + &
           dbesj0(2 * x(i)) + erfc_scaled(x(i)) + erfc_scaled(-0.3d0 * x(i)) + &
           bessel_j1(s) + erfc_scaled(s) + bessel_yn(i - 1, s)
  end do
end subroutine special
