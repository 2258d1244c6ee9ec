! adgen-test
! head: drive(y)/(x)
! arg x: real(8)[3] = uniform(0.5, 1.5)
! arg y: real(8)
!
! A procedure with internal procedures that use its CLASS(spring_t) dummy (host
! association), given objects of spring_t and of damped_t, which extends it: the internal
! procedures call a binding through the host's dummy (`s%energy(y)`, damped_t's override
! for a damped_t object), pass it on to a CLASS dummy and select its type (SELECT TYPE on
! the host's dummy), as in the copy of `work` for each type.
module springs4
  implicit none
  type :: spring_t
    real(8) :: k
  contains
    procedure :: energy
  end type spring_t
  type, extends(spring_t) :: damped_t
    real(8) :: c
  contains
    procedure :: energy => damped_energy
  end type damped_t
contains
  real(8) function energy(self, x)
    class(spring_t), intent(in) :: self
    real(8), intent(in) :: x
    energy = 0.5d0 * self%k * x**2
  end function energy
  real(8) function damped_energy(self, x)
    class(damped_t), intent(in) :: self
    real(8), intent(in) :: x
    damped_energy = 0.5d0 * self%k * x**2 + self%c * sin(x)
  end function damped_energy
  real(8) function stiffness(s)
    class(spring_t), intent(in) :: s
    stiffness = s%k
    select type (s)
    type is (damped_t)
      stiffness = stiffness + s%c**2
    end select
  end function stiffness
  real(8) function work(s, x)
    class(spring_t), intent(in) :: s
    real(8), intent(in) :: x
    real(8) :: w
    w = 1.5d0
    work = twice(x) + s%k * part(x)
  contains
    real(8) function twice(y)
      real(8), intent(in) :: y
      twice = 2d0 * s%energy(y) + stiffness(s) * w
    end function twice
    real(8) function part(y)
      real(8), intent(in) :: y
      part = s%k * y + s%energy(0.5d0 * y)
      select type (s)
      class is (damped_t)
        part = part * s%c
      class default
        part = part + 1d0
      end select
    end function part
  end function work
end module springs4

subroutine drive(x, y)
  use springs4
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  type(spring_t) :: a
  type(damped_t) :: b
  a%k = x(1)
  b%k = x(2)
  b%c = x(3)
  y = work(a, x(3)) + work(b, x(1))
end subroutine drive
