! adgen-test
! head: periodic(e)/(u c)
! arg n: integer = 8
! arg u: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = 0.35
! arg e: real(8)
!
! merge, modulo, dim and cshift: an upwind flux on a periodic grid (cshift by +1 and -1,
! the upwind side chosen by merge on the sign of the velocity), a phase taken modulo a
! period (real, negative values included, and integer), and dim as a one-sided penalty.
subroutine periodic(n, u, c, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), c
  real(8), intent(out) :: e
  real(8) :: v(n), flux(n), phase(n), w(n)
  integer :: i, j
  v = 0.5d0 + u
  flux = merge(v * u - v * cshift(u, -1), v * cshift(u, 1) - v * u, v > 0.6d0)
  w = u - c * flux
  phase = modulo(3d0 * w - 1d0, 0.8d0) + modulo(w, -0.7d0)
  do i = 1, n
    j = modulo(i - 3, n) + 1
    phase(i) = phase(i) + 0.1d0 * w(j) + dim(w(i), 0.2d0) + merge(w(i), 0d0, i > 4)
  end do
  e = sum(phase ** 2) + sum(cshift(w, 3) * w(1:n))
end subroutine periodic
