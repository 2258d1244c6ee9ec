! adgen-test
! head: g(t)/(s)
! arg s: real(4) = 0.6
! arg t: real(4)
! tol: 2e-3
! dot_tol: 1e-5
!
! hypot, asinh, acosh and atanh in single precision (their float C functions); finite
! differences in single precision are coarse, hence the relaxed tolerances.
subroutine g(s, t)
  implicit none
  real(4), intent(in) :: s
  real(4), intent(out) :: t
  t = hypot(s, 0.25) + asinh(s) * acosh(1.5 + s) - atanh(0.5 * s)
end subroutine g
