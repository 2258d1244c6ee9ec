! adgen-test
! head: f(e)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.2, 0.8)
! arg e: real(8)
!
! The Fortran 2008 intrinsics hypot, asinh, acosh and atanh (elemental too).
subroutine f(n, x, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: e
  e = hypot(x(1), x(2)) + asinh(x(3)) + acosh(1d0 + x(4)) + atanh(x(5)) + &
      sum(hypot(x, 0.5d0)) + sum(asinh(x) * atanh(0.5d0 * x))
end subroutine f
