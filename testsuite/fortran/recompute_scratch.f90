! adgen-test
! head: cluster_energy(e)/(x mu w)
! arg n: integer = 4
! arg k: integer = 3
! arg d: integer = 5
! arg x: real(8)[d,n] = uniform(-1, 1)
! arg mu: real(8)[d,k] = uniform(-1, 1)
! arg w: real(8)[d] = uniform(0.5, 1.5)
! arg e: real(8)
!
! Scratch arrays refilled with array syntax at the top of every iteration, from values the
! loops do not change: the adjoint fills them again in its backward sweep instead of
! storing them (written for this project).
subroutine cluster_energy(n, k, d, x, mu, w, e)
  implicit none
  integer, intent(in) :: n, k, d
  real(8), intent(in) :: x(d, n), mu(d, k), w(d)
  real(8), intent(out) :: e
  real(8) :: diff(d), scaled(d)
  integer :: i, j
  e = 0.0d0
  do i = 1, n
    do j = 1, k
      diff = x(:, i) - mu(:, j)
      scaled = 0.5d0 * diff * w
      e = e + log(1.0d0 + sum(w * scaled**2)) + sin(diff(1)) * scaled(d)
    end do
  end do
end subroutine cluster_energy
