! adgen-test
! head: drive(e x v)/(p x v)
! arg n: integer = 6
! arg p: real(8)[2] = uniform(0.5, 1.5)
! arg x: real(8) = uniform(0.5, 1.5)
! arg v: real(8) = uniform(-0.5, 0.5)
! arg e: real(8)
!
! Local polymorphic allocatable variables, `class(force_t), allocatable :: law`, of an
! abstract type: ALLOCATE gives each its dynamic type (`allocate(duffing_t :: law)`, a
! SOURCE= structure constructor), SELECT TYPE sets the components of that type, and the
! object is passed to a CLASS dummy (an oscillator's time loop) and called through a
! binding that calls the deferred one, each running the procedures of that type.
module osc2
  implicit none
  type, abstract :: force_t
  contains
    procedure(force_iface), deferred :: force
    procedure :: potential
  end type force_t
  abstract interface
    real(8) function force_iface(self, x)
      import :: force_t
      class(force_t), intent(in) :: self
      real(8), intent(in) :: x
    end function force_iface
  end interface
  type, extends(force_t) :: hooke_t
    real(8) :: k = 1d0
  contains
    procedure :: force => hooke_force
  end type hooke_t
  type, extends(hooke_t) :: duffing_t
    real(8) :: beta
  contains
    procedure :: force => duffing_force
  end type duffing_t
contains
  real(8) function potential(self, x)
    class(force_t), intent(in) :: self
    real(8), intent(in) :: x
    potential = -0.5d0 * x * self%force(x)
  end function potential
  real(8) function hooke_force(self, x)
    class(hooke_t), intent(in) :: self
    real(8), intent(in) :: x
    hooke_force = -self%k * x
  end function hooke_force
  real(8) function duffing_force(self, x)
    class(duffing_t), intent(in) :: self
    real(8), intent(in) :: x
    duffing_force = -self%k * x - self%beta * x**3
  end function duffing_force
  subroutine integrate(law, n, dt, x, v)
    class(force_t), intent(in) :: law
    integer, intent(in) :: n
    real(8), intent(in) :: dt
    real(8), intent(inout) :: x, v
    integer :: i
    do i = 1, n
      v = v + dt * law%force(x)
      x = x + dt * v
    end do
  end subroutine integrate
end module osc2

subroutine drive(n, p, x, v, e)
  use osc2
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: p(2)
  real(8), intent(inout) :: x, v
  real(8), intent(out) :: e
  class(force_t), allocatable :: law, other
  allocate(duffing_t :: law)
  select type (law)
  type is (duffing_t)
    law%k = p(1)
    law%beta = p(2)
  end select
  allocate(other, source=hooke_t(2d0 * p(2)))
  call integrate(law, n, 0.05d0, x, v)
  call integrate(other, n, 0.02d0, x, v)
  e = 0.5d0 * v**2 + law%potential(x) + other%potential(v)
  if (allocated(law)) deallocate(law)
  deallocate(other)
end subroutine drive
