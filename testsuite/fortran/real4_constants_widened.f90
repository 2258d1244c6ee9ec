! adgen-test
! head: scale(y)/(x)
! arg x: real(8) = 0.7
! arg y: real(8)[5]
!
! A single-precision constant converted to double precision keeps its single-precision
! value, as gfortran converts it: a default-real literal assigned to a real(8) variable
! (a = 0.1 is 0.100000001490116...), a default-real PARAMETER (rs = alb), real(0.3, 8),
! dble(alb). The generated C wrote the decimal as a double (a = 0.1), a different value.
! And a double constant assigned to a default real is rounded once, from the double.
subroutine scale(x, y)
  implicit none
  real, parameter :: alb = 0.15
  real(8), intent(in) :: x
  real(8), intent(out) :: y(5)
  real(8) :: a, rs
  real :: s4
  a = 0.1
  rs = alb
  s4 = 0.1d0
  y(1) = a * x
  y(2) = rs * x
  y(3) = real(0.3, 8) * x
  y(4) = dble(alb) * x + x * 0.1
  y(5) = s4 * x
end subroutine scale
