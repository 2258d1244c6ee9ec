! adgen-test
! head: scatter_add(u)/(g u)
! arg n: integer = 6
! arg m: integer = 3
! arg g: real(8)[m] = uniform(-1, 1)
! arg idx: integer[m] = {5, 1, 3}
! arg u: real(8)[n] = uniform(-1, 1)
!
! Assignments to sections with a vector subscript (scatters, u(idx) = ...; Fortran asks
! that no index repeat): reading the same elements, reading others (through a
! temporary), of a local array with a section of indices, under WHERE, with cshift of
! the gathered values, in a loop.
subroutine scatter_add(n, m, g, idx, u)
  implicit none
  integer, intent(in) :: n, m, idx(m)
  real(8), intent(in) :: g(m)
  real(8), intent(inout) :: u(n)
  real(8) :: w(n)
  integer :: k
  u(idx) = u(idx) + g**2
  u(idx) = u(1:m) * u(idx)
  w = 0d0
  w(idx(2:3)) = sin(u(idx(1:2)))
  where (g > 0d0) u(idx) = u(idx) * w(idx)
  do k = 1, 2
    u(idx) = 0.5d0 * u(idx) + cshift(u(idx), 1)
  end do
  u(n) = u(n) + sum(w)
end subroutine scatter_add
