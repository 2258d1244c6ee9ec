! adgen-test
! head: ensemble_step(cost)/(x0 gain)
! arg n: integer = 7
! arg x0: real(8)[n] = uniform(-1, 1)
! arg gain: real(8) = 0.7
! arg cost: real(8)
!
! Whole structures assigned: an ensemble state holding a long history array, a small
! matrix and an array of member structures is copied to a trial state, updated, and
! copied back when the trial lowers the cost; a function returns a structure. Each copy
! runs over every component, the history and the members included.
module ensemble_types
  implicit none
  integer, parameter :: nhist = 120, nmem = 4
  type :: member
    real(8) :: w, z(3)
  end type member
  type :: ensemble
    real(8) :: hist(nhist)
    real(8) :: cov(3, 2)
    type(member) :: mem(nmem)
    integer :: nsteps
  end type ensemble
contains
  function relaxed(e, g) result(r)
    type(ensemble), intent(in) :: e
    real(8), intent(in) :: g
    type(ensemble) :: r
    integer :: i
    r = e
    do i = 2, nhist
      r%hist(i) = r%hist(i) + g * (e%hist(i - 1) - e%hist(i))
    end do
    do i = 1, nmem
      r%mem(i)%w = r%mem(i)%w * (1.0d0 - 0.1d0 * g)
      r%mem(i)%z = r%mem(i)%z + g * r%cov(:, 1) * r%mem(i)%w
    end do
    r%nsteps = e%nsteps + 1
  end function relaxed

  real(8) function energy(e)
    type(ensemble), intent(in) :: e
    integer :: i
    energy = sum(e%hist**2) / nhist + sum(e%cov**2)
    do i = 1, nmem
      energy = energy + e%mem(i)%w**2 + sum(sin(e%mem(i)%z))
    end do
  end function energy
end module ensemble_types

subroutine ensemble_step(n, x0, gain, cost)
  use ensemble_types
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x0(n), gain
  real(8), intent(out) :: cost
  type(ensemble) :: cur, trial
  integer :: i, it
  do i = 1, nhist
    cur%hist(i) = x0(mod(i - 1, n) + 1) * cos(0.1d0 * i)
  end do
  cur%cov = 0.5d0
  cur%cov(1, 1) = x0(1)
  cur%cov(2, 2) = x0(2) * x0(3)
  do i = 1, nmem
    cur%mem(i)%w = x0(i) + 1.0d0
    cur%mem(i)%z = x0(i + 1) * [1.0d0, 2.0d0, 3.0d0]
  end do
  cur%nsteps = 0
  do it = 1, 3
    trial = relaxed(cur, gain / it)
    if (energy(trial) < energy(cur) + 0.5d0) then
      cur = trial
    end if
  end do
  cost = energy(cur)
end subroutine
