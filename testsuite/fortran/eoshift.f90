! adgen-test
! head: stencil(cost)/(u m b)
! arg n: integer = 7
! arg u: real(8)[n] = uniform(-1, 1)
! arg m: real(8)[3, 4] = uniform(-1, 1)
! arg b: real(8) = 0.3
! arg cost: real(8)
!
! eoshift, the end-off shift of non-periodic stencils: the elements shifted out are lost,
! the ends filled with 0 or with a boundary value (active here); shifts of either sign, of
! an expression, along either dimension of a matrix, and of the array assigned (through a
! temporary, as Fortran evaluates the right side first).
subroutine stencil(n, u, m, b, cost)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), m(3, 4), b
  real(8), intent(out) :: cost
  real(8) :: lap(n), w(n), p(3, 4)
  integer :: s
  lap = eoshift(u, 1) - 2.0d0 * u + eoshift(u, -1)
  w = eoshift(sin(u) * u, 2, b) + eoshift(u, shift=-3, boundary=b * b)
  s = 1
  w = w * eoshift(w, s, boundary=1.5d0)
  p = eoshift(m, 1, dim=2) + eoshift(m, -1, b, 1) * m
  p = eoshift(p, 2, 0.5d0, 2)
  cost = sum(lap ** 2) + sum(w * u) + sum(p * m) + sum(eoshift(u, n + 1, b) * u)
end subroutine stencil
