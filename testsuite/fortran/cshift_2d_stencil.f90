! adgen-test
! head: diffuse(e)/(u k)
! arg n: integer = 5
! arg m: integer = 4
! arg u: real(8)[n, m] = uniform(-1, 1)
! arg k: real(8) = 0.2
! arg e: real(8)
!
! cshift of a matrix along each dimension (DIM by position and by keyword, shifts of both
! signs): explicit steps of a periodic 2-D diffusion, the last one in place (its right side
! reads the array it assigns, through a temporary).
subroutine diffuse(n, m, u, k, e)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: u(n, m)
  real(8), intent(in) :: k
  real(8), intent(out) :: e
  real(8) :: lap(n, m), v(0:n - 1, m)
  integer :: step
  do step = 1, 3
    lap = cshift(u, 1, 1) + cshift(u, -1, 1) + cshift(u, 1, dim=2) + cshift(u, -1, dim=2) &
          - 4d0 * u
    u = u + k * lap * (1d0 + 0.1d0 * u ** 2)
  end do
  v = u
  u = 0.5d0 * (u + cshift(u, 2, 2) * v)
  e = sum(u ** 2) + sum(cshift(v(1:3, :), -1) * u(2:4, :))
end subroutine diffuse
