! adgen-test
! head: powers(y)/(x p)
! arg x: real(8)[3] = uniform(0.5, 1.5)
! arg p: real(8) = 1.7
! arg y: real(8)[8]
!
! The ** operator: integer exponents (positive, negative, zero, a variable), real
! exponents (constant, variable), a real base to an active exponent, and
! right-associativity of a ** b ** c.
subroutine powers(x, p, y)
  implicit none
  real(8), intent(in) :: x(3), p
  real(8), intent(out) :: y(8)
  integer :: m
  m = 3
  y(1) = x(1)**2 + x(2)**3
  y(2) = x(3)**(-2) + x(1)**0
  y(3) = x(2)**m
  y(4) = x(1)**0.5d0 + x(3)**1.5d0
  y(5) = x(2)**p
  y(6) = 2.0d0**x(1) + p**x(3)
  y(7) = x(1)**x(2)
  y(8) = x(3)**2**2 + (x(1)**2)**2
end subroutine powers
