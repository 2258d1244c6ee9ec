! adgen-test
! head: relax(energy)/(u0 coef)
! arg n: integer = 7
! arg nsteps: integer = 5
! arg u0: real(8)[n] = uniform(-1, 1)
! arg coef: real(8)[3] = uniform(0.1, 0.3)
! arg energy: real(8)
!
! Local POINTERs given storage of their own, as codes written before allocatable arrays
! were general do: ALLOCATE of 1-D (with lower bounds) and 2-D pointer arrays and of a
! scalar pointer, two allocated buffers swapped through a third pointer every step, a
! scratch array allocated and deallocated in each step, DEALLOCATE with STAT=, and a
! pointer pointed at another's storage (no storage of its own) before both are freed.
subroutine relax(n, nsteps, u0, coef, energy)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: u0(n), coef(3)
  real(8), intent(out) :: energy
  real(8), pointer :: uold(:), unew(:), tmp(:), scratch(:), hist(:, :), alias(:)
  real(8), pointer :: acc
  integer :: i, k, ierr
  allocate(uold(0:n - 1), unew(0:n - 1))
  allocate(hist(n, 2), acc)
  uold = u0
  unew = 0.0d0
  acc = 0.0d0
  do k = 1, nsteps
    allocate(scratch(n))
    do i = 1, n
      scratch(i) = uold(i - 1) * uold(i - 1)
    end do
    unew(0) = uold(0)
    unew(n - 1) = uold(n - 1)
    do i = 1, n - 2
      unew(i) = uold(i) + coef(1) * (uold(i - 1) - 2.0d0 * uold(i) + uold(i + 1)) &
                - coef(2) * scratch(i + 1) * uold(i)
    end do
    acc = acc + coef(3) * sum(scratch)
    deallocate(scratch)
    tmp => uold
    uold => unew
    unew => tmp
  end do
  hist(:, 1) = uold
  hist(:, 2) = cos(unew) * acc
  alias => uold
  energy = sum(hist(:, 1)**2) + sum(hist(:, 2)) + alias(lbound(alias, 1)) + acc
  nullify(alias)
  deallocate(uold, unew, stat=ierr)
  if (ierr /= 0) energy = -energy
  deallocate(hist, acc)
end subroutine relax
