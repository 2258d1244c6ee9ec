! adgen-test
! head: drive(y)/(x)
! expect-error: ALLOCATE gives it the types 'stiff_t', 'spring_t': its type is known only when the program runs
! expect-error-line: 38
!
! A polymorphic allocatable variable given one type or another as the data decide: the
! procedure its binding runs would be chosen when the program runs, which adgen does not
! follow (it follows the one type ALLOCATE gives an object), so it is refused.
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
  y = s%energy(x)
end subroutine drive
