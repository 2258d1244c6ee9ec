! adgen-test
! head: normalize(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)[n]
!
! A function whose result is not a dependent (it is not in the head): the dependent
! is an array argument it writes. Its tangent normalize_d returns the primal result
! (like the C convention for an inactive return value); its adjoint is a subroutine.
real(8) function normalize(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: s
  s = sqrt(sum(x**2))
  y = x / s
  normalize = s
end function normalize
