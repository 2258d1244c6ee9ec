! adgen-test
! head: march(energy)/(u0 coef)
! arg n: integer = 7
! arg nsteps: integer = 12
! arg u0: real(8)[n] = uniform(-1, 1)
! arg coef: real(8)[2] = uniform(0.1, 0.3)
! arg energy: real(8)
!
! A time stepper whose two buffers are POINTERs' own storage (ALLOCATE), swapped through
! a third pointer every step, the loop checkpointed (BINOMIAL-CKP with 3 snapshots): the
! kept state holds both blocks through the allocated pointers, which every step only
! permutes, and the pointers with their shadows.
subroutine march(n, nsteps, u0, coef, energy)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: u0(n), coef(2)
  real(8), intent(out) :: energy
  real(8), pointer :: cur(:), nxt(:), tmp(:)
  integer :: i, k
  allocate(cur(n), nxt(n))
  cur = u0
  nxt = 0.0d0
  !$AD BINOMIAL-CKP nsteps 3 1
  do k = 1, nsteps
    nxt(1) = cur(1)
    nxt(n) = cur(n)
    do i = 2, n - 1
      nxt(i) = cur(i) + coef(1) * (cur(i - 1) - 2.0d0 * cur(i) + cur(i + 1)) &
               - coef(2) * cur(i)**3
    end do
    tmp => cur
    cur => nxt
    nxt => tmp
  end do
  energy = sum(cur**2) + 0.5d0 * sum(nxt)
  deallocate(cur, nxt)
end subroutine march
