! adgen-test
! head: heat(e)/(kappa u)
! arg n: integer = 6
! arg steps: integer = 3
! arg choice: integer = 1
! arg kappa: real(8) = uniform(0.5, 1.5)
! arg u: real(8)[n] = uniform(-1, 1)
! arg e: real(8)
! head: heat(e u)/(kappa u)
! arg n: integer = 6
! arg steps: integer = 3
! arg choice: integer = -1
! arg kappa: real(8) = uniform(0.5, 1.5)
! arg u: real(8)[n] = uniform(-1, 1)
! arg e: real(8)
!
! A polymorphic allocatable heat conduction law whose dynamic type the data choose (an
! argument): ALLOCATE gives it one type or the other in the branches of an IF, so the type
! is known only when the program runs. The derivative code dispatches on it as the program
! does: each statement using it runs on the object of the type it was given (through a
! binding that overrides a DEFERRED one, passed to a CLASS dummy in a time loop, in SELECT
! TYPE, in allocated() and DEALLOCATE); both types are tested.
module plates9
  implicit none
  type, abstract :: law_t
  contains
    procedure(flux_iface), deferred :: flux
  end type law_t
  abstract interface
    real(8) function flux_iface(self, g)
      import :: law_t
      class(law_t), intent(in) :: self
      real(8), intent(in) :: g
    end function flux_iface
  end interface
  type, extends(law_t) :: fourier_t
    real(8) :: kappa
  contains
    procedure :: flux => fourier_flux
  end type fourier_t
  type, extends(fourier_t) :: saturating_t
    real(8) :: gmax = 2d0
  contains
    procedure :: flux => saturating_flux
  end type saturating_t
contains
  real(8) function fourier_flux(self, g)
    class(fourier_t), intent(in) :: self
    real(8), intent(in) :: g
    fourier_flux = -self%kappa * g
  end function fourier_flux
  real(8) function saturating_flux(self, g)
    class(saturating_t), intent(in) :: self
    real(8), intent(in) :: g
    saturating_flux = -self%kappa * self%gmax * tanh(g / self%gmax)
  end function saturating_flux
  subroutine diffuse(law, n, dt, u)
    class(law_t), intent(in) :: law
    integer, intent(in) :: n
    real(8), intent(in) :: dt
    real(8), intent(inout) :: u(n)
    real(8) :: f(n + 1)
    integer :: i
    f(1) = 0d0
    f(n + 1) = 0d0
    do i = 2, n
      f(i) = law%flux(u(i) - u(i - 1))
    end do
    do i = 1, n
      u(i) = u(i) - dt * (f(i + 1) - f(i))
    end do
  end subroutine diffuse
end module plates9

subroutine heat(n, steps, choice, kappa, u, e)
  use plates9
  implicit none
  integer, intent(in) :: n, steps, choice
  real(8), intent(in) :: kappa
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: e
  class(law_t), allocatable :: law
  integer :: k
  if (choice > 0) then
    allocate(law, source=saturating_t(kappa, 1.5d0))
  else
    allocate(fourier_t :: law)
    select type (law)
    type is (fourier_t)
      law%kappa = kappa
    end select
  end if
  do k = 1, steps
    call diffuse(law, n, 0.1d0, u)
  end do
  e = sum(u**2) + law%flux(u(1))
  if (allocated(law)) deallocate(law)
end subroutine heat
