! adgen-test
! head: response(g)/(w tau)
! arg n: integer = 5
! arg w: real(8)[n] = uniform(0.5, 2.0)
! arg tau: real(8) = 0.7
! arg g: real(8)
!
! The gain of a second-order lag H(iw) = 1 / (1 + iw tau)^2 summed over frequencies, in
! COMPLEX arithmetic (cmplx with KIND=, a real over a complex power, abs, real, aimag):
! a COMPLEX variable is a structure of two reals and its arithmetic real arithmetic on
! them, so the gradient is that of the real and imaginary parts.
module filters
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine response(n, w, tau, g)
    integer, intent(in) :: n
    real(dp), intent(in) :: w(n), tau
    real(dp), intent(out) :: g
    complex(dp) :: h, s
    integer :: k
    g = 0
    do k = 1, n
      s = cmplx(0.0_dp, w(k), kind=dp)
      h = 1.0_dp / (1.0_dp + s * tau) ** 2
      g = g + abs(h) + real(h) * aimag(h)
    end do
  end subroutine
end module
