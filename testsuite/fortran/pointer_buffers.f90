! adgen-test
! head: evolve(energy)/(u0 coef)
! arg n: integer = 6
! arg nsteps: integer = 4
! arg u0: real(8)[n] = uniform(-1, 1)
! arg coef: real(8)[3] = uniform(0.1, 0.3)
! arg energy: real(8)
!
! Local POINTERs as time-stepping codes use them: two buffers swapped through pointers
! every step (p => a; swapping three pointers), a pointer to a column of a 2-D array and
! to an array component of a derived type, a scalar pointer to an element, pointer
! copies, NULLIFY and associated().
module grid_types
  implicit none
  type :: grid_t
    real(8) :: w(6)
    real(8) :: scale
  end type grid_t
end module grid_types

subroutine evolve(n, nsteps, u0, coef, energy)
  use grid_types
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: u0(n), coef(3)
  real(8), intent(out) :: energy
  real(8), target :: ua(n), ub(n), hist(n, 2)
  type(grid_t), target :: g
  real(8), pointer :: uold(:), unew(:), tmp(:), col(:), wts(:), h(:, :)
  real(8), pointer :: peak
  integer :: i, k
  ua = u0
  ub = 0.0d0
  g%w = 0.5d0
  g%scale = coef(3)
  wts => g%w
  nullify(tmp)
  uold => ua
  unew => ub
  do k = 1, nsteps
    unew(1) = uold(1)
    unew(n) = uold(n)
    do i = 2, n - 1
      unew(i) = uold(i) + coef(1) * (uold(i - 1) - 2.0d0 * uold(i) + uold(i + 1)) &
                - coef(2) * uold(i)**2 * wts(i)
    end do
    wts = 0.9d0 * wts + 0.1d0 * unew(1:6)
    tmp => uold
    uold => unew
    unew => tmp
  end do
  h => hist
  col => h(:, 1)
  col = uold
  col => hist(:, 2)
  col = sin(uold) * g%scale
  peak => hist(2, 2)
  peak = peak * 2.0d0
  energy = sum(hist(:, 1)**2) + sum(hist(:, 2)) + sum(wts)
  if (associated(tmp)) energy = energy + 0.5d0 * tmp(1)
end subroutine evolve
