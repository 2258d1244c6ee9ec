! adgen-test
! head: march(u)/(u c)
! arg n: integer = 6
! arg nsteps: integer = 10
! arg u: real(8)[n] = uniform(0.5, 1)
! arg c: real(8) = 0.3
!
! Tapenade's `!$AD NOCHECKPOINT` before calls (split mode: the callee's record stays
! on the stack until the backward sweep reaches the call), in a loop over time steps
! checkpointed with `!$ad binomial-ckp` (lower case).
subroutine step(n, u, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: u(n)
  real(8), intent(in) :: c
  integer :: i
  real(8) :: prev
  prev = u(n)
  do i = 1, n
    u(i) = u(i) - c * (u(i) - prev) * u(i)
    prev = u(i)
  end do
end subroutine

subroutine march(n, nsteps, u, c)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(inout) :: u(n)
  real(8), intent(in) :: c
  integer :: t
  !$AD NOCHECKPOINT
  call step(n, u, c)
  !$ad binomial-ckp nsteps 2 1
  do t = 2, nsteps
    !$AD NOCHECKPOINT
    call step(n, u, c)
  end do
end subroutine
