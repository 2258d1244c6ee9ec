! adgen-test
! head: equilibrium(energy)/(src kappa)
! arg n: integer = 10
! arg src: real(8)[n] = uniform(0.2, 0.6)
! arg kappa: real(8) = 0.8
! arg t: real(8)[n]
! arg energy: real(8)
!
! Tapenade's `!$AD FP-LOOP` before a Picard iteration (DO WHILE until the update is
! below a tolerance) for a nonlinear steady heat balance, with array syntax and a
! temperature-dependent conductivity; its boundary values come from the inputs and the
! loop never writes them. The adjoint iterates passes of the body at the fixed point.
subroutine picard_update(n, t, src, kappa, change)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: t(n)
  real(8), intent(in) :: src(n), kappa
  real(8), intent(out) :: change
  real(8) :: tnew(n), k(n)
  integer :: i
  k = kappa / (1.0d0 + 0.1d0 * t * t)
  tnew = t
  do i = 2, n - 1
    tnew(i) = (k(i) * (t(i - 1) + t(i + 1)) + src(i)) / (2.0d0 * k(i) + 1.0d0)
  end do
  change = maxval(abs(tnew - t))
  t = tnew
end subroutine

subroutine equilibrium(n, src, kappa, t, energy)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: src(n), kappa
  real(8), intent(inout) :: t(n)
  real(8), intent(out) :: energy
  real(8) :: change
  integer :: iter
  t = 0.0d0
  t(1) = src(1)
  t(n) = 0.5d0 * src(n)
  change = 1.0d0
  iter = 0
  !$AD FP-LOOP t
  do while (change > 1.0d-15 .and. iter < 3000)
    call picard_update(n, t, src, kappa, change)
    iter = iter + 1
  end do
  energy = sum(t * t) + kappa * sum(t)
end subroutine
