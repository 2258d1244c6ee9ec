! adgen-test
! head: cabs2(y)/(x)
! expect-error: complex
! expect-error-line: 11, 13
!
! COMPLEX arithmetic is not supported: adgen must refuse it with an error at the
! declaration or the use.
subroutine cabs2(x, y)
  implicit none
  real(8), intent(in) :: x(2)
  complex(8) :: z
  real(8), intent(out) :: y
  z = cmplx(x(1), x(2), 8)
  y = abs(z * z)
end subroutine cabs2
