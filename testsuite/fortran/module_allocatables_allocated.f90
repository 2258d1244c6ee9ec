! adgen-test
! head: simulate(cost)/(u0 kappa)
! arg n: integer = 6
! arg nsteps: integer = 4
! arg u0: real(8)[n] = uniform(0.5, 1.5)
! arg kappa: real(8) = 0.3
! arg cost: real(8)
!
! Allocatable module variables that the derivative code itself allocates and deallocates:
! a work array allocated on the first call only (`if (.not. allocated(w))`) and kept
! between calls (filled from the inputs at each call: it carries derivatives), state
! allocated by an init routine with lower bounds other than 1 and STAT=, an integer index
! array, a scratch array allocated with a new size and deallocated at each time step, all
! but the kept one deallocated by a finish routine. ALLOCATE fills gfortran's descriptor as
! gfortran does; an array that carries derivatives gets its adjoint (tangent) block beside
! its own. tests/test_fortran.py calls the adjoint from a Fortran main program and checks
! what it leaves in the module.
module state
  implicit none
  real(8), allocatable :: u(:), flux(:)
  real(8), allocatable :: hist(:, :)
  real(8), allocatable :: w(:), scratch(:)
  integer, allocatable :: perm(:)
end module state

module solver
  use state
  implicit none
contains
  subroutine init(n, u0)
    integer, intent(in) :: n
    real(8), intent(in) :: u0(n)
    integer :: ierr, i
    allocate(u(n), flux(0:n), stat=ierr)
    if (ierr /= 0) stop 1
    allocate(hist(n, -1:4), perm(n))
    if (.not. allocated(w)) allocate(w(n))
    w = 0.5d0 * u0 + 1d0
    u = u0
    hist = 0
    do i = 1, n
      perm(i) = n + 1 - i
    end do
  end subroutine init

  subroutine step(n, kappa, t)
    integer, intent(in) :: n, t
    real(8), intent(in) :: kappa
    integer :: i
    flux(lbound(flux, 1)) = 0
    flux(ubound(flux, 1)) = 0
    do i = 1, n - 1
      flux(i) = kappa * (u(i + 1) - u(i)) * u(perm(i))
    end do
    do i = 1, size(u)
      u(i) = u(i) + 0.1d0 * (flux(i) - flux(i - 1)) - 0.01d0 * u(i)**2
    end do
    hist(:, t) = u * w
  end subroutine step

  subroutine finish()
    deallocate(u, flux)
    deallocate(hist, perm)
  end subroutine finish
end module solver

subroutine simulate(n, nsteps, u0, kappa, cost)
  use state
  use solver
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: u0(n), kappa
  real(8), intent(out) :: cost
  integer :: t
  call init(n, u0)
  cost = 0
  do t = 1, nsteps
    call step(n, kappa, t)
    allocate(scratch(t * n))
    scratch = 0
    scratch(1:n) = u * hist(:, t)
    cost = cost + sum(scratch) / t
    deallocate(scratch)
  end do
  cost = cost + sum(u**2) + sum(hist(:, 1:nsteps)) * kappa + sum(w)
  call finish()
end subroutine simulate
