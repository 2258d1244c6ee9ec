! adgen-test
! head: drive(y)/(x)
! expect-error: 's', a polymorphic variable of the host that may be of several types, used in an internal procedure
! expect-error-line: 48
!
! A polymorphic allocatable variable given one type or another as the data decide is
! dispatched on its type where the procedure uses it; not where an internal procedure
! uses it (host association), which is refused.
module runtime_springs
  implicit none
  type :: spring_t
    real(8) :: k
  contains
    procedure :: energy
  end type spring_t
  type, extends(spring_t) :: stiff_t
  contains
    procedure :: energy => stiff_energy
  end type stiff_t
contains
  real(8) function energy(self, x)
    class(spring_t), intent(in) :: self
    real(8), intent(in) :: x
    energy = self%k * x**2
  end function energy
  real(8) function stiff_energy(self, x)
    class(stiff_t), intent(in) :: self
    real(8), intent(in) :: x
    stiff_energy = self%k * x**4
  end function stiff_energy
end module runtime_springs

subroutine drive(x, y)
  use runtime_springs
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  class(spring_t), allocatable :: s
  if (x > 0d0) then
    allocate(stiff_t :: s)
  else
    allocate(spring_t :: s)
  end if
  s%k = 2d0
  y = twice()
contains
  real(8) function twice()
    twice = 2d0 * s%energy(x)
  end function twice
end subroutine drive
