! adgen-test
! head: cabs2(y)/(x)
! arg x: real(8)[2] = uniform(0.5, 1.5)
! arg y: real(8)
!
! The modulus of the square of a complex number built from two reals, with the kind
! given positionally (`cmplx(a, b, 8)`): the smallest COMPLEX program (it was refused
! before COMPLEX arithmetic became real arithmetic on its two parts).
subroutine cabs2(x, y)
  implicit none
  real(8), intent(in) :: x(2)
  complex(8) :: z
  real(8), intent(out) :: y
  z = cmplx(x(1), x(2), 8)
  y = abs(z * z)
end subroutine cabs2
