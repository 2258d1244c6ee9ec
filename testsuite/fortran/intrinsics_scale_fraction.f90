! adgen-test
! head: spec(y)/(x)
! arg n: integer = 3
! arg x: real(8)[n] = {0.7d0, 1.3d0, 2.6d0}
! arg y: real(8)[n]
!
! Intrinsics on a real's representation: scale
! (x times 2**i, exactly: ldexp), fraction and exponent (x = fraction * 2**exponent,
! frexp's parts: fraction's derivative is 2**-exponent, exponent's none), and Fortran
! 2008's two-argument atan (atan2's value). Before: "intrinsic 'scale' is not supported",
! the same for the others (dprod: tests/test_fortran.py), and a syntax error for atan.
subroutine spec(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  integer :: i
  do i = 1, n
    y(i) = scale(x(i), 2) + fraction(x(i)) * exponent(x(i)) + &
           scale(x(i) * x(i), -3) * fraction(3.0d0 * x(i)) + atan(x(i), 2.0d0 - x(i))
  end do
end subroutine
