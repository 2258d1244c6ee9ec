! adgen-test
! head: f(e)/(u)
! arg u: real(8)[8] = uniform(-1, 1)
! arg e: real(8)
!
! cshift of array sections and of arrays whose bounds do not start at 1, shifted both ways
! and by more than half the length.
subroutine f(u, e)
  implicit none
  real(8), intent(in) :: u(0:7)
  real(8), intent(out) :: e
  real(8) :: w(-2:3), z(6)
  w = u(1:6) * u(2:7)
  z = cshift(u(2:7), -2) * u(0:5) + cshift(w, 4)
  e = z(1) + 2*z(2)**2 + 3*z(3)**3 + z(4)*z(5) + sin(z(6))
end subroutine f
