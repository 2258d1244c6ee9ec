! adgen-test
! head: heat_steps(t)/(t q)
! arg n: integer = 6
! arg t: real(8)[n] = uniform(0.5, 1.5)
! arg q: real(8)[n] = uniform(-0.2, 0.2)
! setup: init_model
!
! A model keeping its state in module variables set by an init routine (called
! before every evaluation through `setup:`): the grid, the conductivities and the
! time step live in the module; a module work array carries active values between
! two module procedures (the C output uses gfortran's __heat_model_MOD_* symbols,
! so the state the gfortran-compiled init_model sets is the one read).
module heat_model
  implicit none
  integer, parameter :: maxn = 50
  integer :: nsteps = 0
  real(8) :: dt, dx
  real(8) :: kappa(maxn)
  real(8) :: flux(0:maxn)
contains
  subroutine init_model()
    integer :: i
    nsteps = 5
    dx = 0.2d0
    dt = 0.004d0
    do i = 1, maxn
      kappa(i) = 1.0d0 + 0.1d0 * mod(i, 3)
    end do
    flux = 0.0d0
  end subroutine init_model

  subroutine compute_flux(n, t)
    integer, intent(in) :: n
    real(8), intent(in) :: t(n)
    integer :: i
    flux(0) = 0.0d0
    flux(n) = 0.0d0
    do i = 1, n - 1
      flux(i) = -0.5d0 * (kappa(i) + kappa(i+1)) * (1.0d0 + 0.1d0 * t(i) * t(i+1)) &
                * (t(i+1) - t(i)) / dx
    end do
  end subroutine compute_flux

  subroutine heat_steps(n, t, q)
    integer, intent(in) :: n
    real(8), intent(inout) :: t(n)
    real(8), intent(in) :: q(n)
    integer :: k
    do k = 1, nsteps
      call compute_flux(n, t)
      t = t + dt * (q - (flux(1:n) - flux(0:n-1)) / dx)
    end do
  end subroutine heat_steps
end module heat_model
