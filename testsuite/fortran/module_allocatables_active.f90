! adgen-test
! head: simulate(cost)/(u0 kappa)
! setup: allocate_state
! arg n: integer = 6
! arg nsteps: integer = 5
! arg u0: real(8)[n] = uniform(0.5, 1.5)
! arg kappa: real(8) = 0.3
! arg cost: real(8)
!
! Allocatable module variables that carry derivatives, as physics codes keep their state:
! allocated (with lower bounds other than 1) by a setup routine gfortran compiles, before
! the derivative code runs; the head loads its argument into them and procedures of a
! module step them in a loop. Their adjoints live in arrays of the same shape that the
! head allocates, zeroed, on entry and frees on exit; the module arrays keep the values the
! primal leaves in them.
module state
  implicit none
  real(8), allocatable :: u(:), flux(:)
  real(8), allocatable :: hist(:, :)
  real(8), allocatable :: w(:)
end module state

subroutine allocate_state()
  use state
  implicit none
  if (.not. allocated(u)) allocate(u(6), flux(0:6), hist(6, -1:5), w(6))
  w = [1d0, 2d0, 1d0, 2d0, 1d0, 2d0]
end subroutine allocate_state

module solver
  use state
  implicit none
contains
  subroutine load(n, u0)
    integer, intent(in) :: n
    real(8), intent(in) :: u0(n)
    u = u0
    hist = 0
  end subroutine load

  subroutine step(n, kappa, t)
    integer, intent(in) :: n, t
    real(8), intent(in) :: kappa
    integer :: i
    flux(0) = 0
    flux(n) = 0
    do i = 1, n - 1
      flux(i) = kappa * (u(i + 1) - u(i)) * u(i)
    end do
    do i = 1, n
      u(i) = u(i) + 0.1d0 * (flux(i) - flux(i - 1)) - 0.01d0 * u(i)**2
    end do
    hist(:, t) = u * w
  end subroutine step
end module solver

subroutine simulate(n, nsteps, u0, kappa, cost)
  use state
  use solver
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: u0(n), kappa
  real(8), intent(out) :: cost
  integer :: t
  call load(n, u0)
  do t = 1, nsteps
    call step(n, kappa, t)
  end do
  cost = sum(u**2) + sum(hist(:, 1:nsteps)) * kappa
end subroutine simulate
