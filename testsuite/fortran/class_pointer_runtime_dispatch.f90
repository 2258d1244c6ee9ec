! adgen-test
! head: drive(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
!
! A polymorphic POINTER pointed, in each iteration of a loop, at a TARGET of one type or
! of an extended one as the data decide: the derivative code dispatches the binding called
! through it (and associated()) on the type of its target, as the program does, in the
! backward sweep too.
module ptr10
  implicit none
  type :: cell_t
    real(8) :: w
  contains
    procedure :: load
  end type cell_t
  type, extends(cell_t) :: heavy_t
    real(8) :: extra
  contains
    procedure :: load => heavy_load
  end type heavy_t
contains
  real(8) function load(self, x)
    class(cell_t), intent(in) :: self
    real(8), intent(in) :: x
    load = self%w * x
  end function load
  real(8) function heavy_load(self, x)
    class(heavy_t), intent(in) :: self
    real(8), intent(in) :: x
    heavy_load = self%w * x + self%extra * x**2
  end function heavy_load
end module ptr10

subroutine drive(n, x, y)
  use ptr10
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  type(cell_t), target :: light
  type(heavy_t), target :: heavy
  class(cell_t), pointer :: p
  integer :: i
  light%w = x(1)
  heavy%w = x(2)
  heavy%extra = 0.5d0
  y = 0d0
  do i = 1, n
    if (x(i) > 1d0) then
      p => heavy
    else
      p => light
    end if
    y = y + p%load(x(i))
    if (associated(p)) y = y * 0.9d0
  end do
  nullify(p)
end subroutine drive
