! adgen-test
! head: drive(y)/(x)
! arg x: real(8)[3] = uniform(0.5, 1.5)
! arg y: real(8)
!
! Local polymorphic POINTER variables, `class(section_t), pointer :: p`: pointed at a
! TARGET of an extended type (`p => h`), or ALLOCATEd with SOURCE= a structure
! constructor; calls through their bindings run the procedures of that type, and change
! the target (`call p%scale(...)` scales h), SELECT TYPE with an associate name selects
! the block of that type, DEALLOCATE and NULLIFY end them.
module beams7
  implicit none
  type :: section_t
    real(8) :: area
  contains
    procedure :: stiffness
    procedure :: scale
  end type section_t
  type, extends(section_t) :: hollow_t
    real(8) :: wall
  contains
    procedure :: stiffness => hollow_stiffness
  end type hollow_t
contains
  real(8) function stiffness(self, e)
    class(section_t), intent(in) :: self
    real(8), intent(in) :: e
    stiffness = e * self%area
  end function stiffness
  real(8) function hollow_stiffness(self, e)
    class(hollow_t), intent(in) :: self
    real(8), intent(in) :: e
    hollow_stiffness = e * self%area * (1d0 - self%wall**2)
  end function hollow_stiffness
  subroutine scale(self, f)
    class(section_t), intent(inout) :: self
    real(8), intent(in) :: f
    self%area = self%area * f
  end subroutine scale
end module beams7

subroutine drive(x, y)
  use beams7
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  type(hollow_t), target :: h
  class(section_t), pointer :: p, q
  h%area = x(1)
  h%wall = 0.5d0 * x(2)
  p => h
  call p%scale(x(3))
  y = p%stiffness(x(2)) + h%area
  allocate(q, source=section_t(x(1) * x(3)))
  call q%scale(2d0)
  y = y * q%stiffness(x(1))
  select type (s => q)
  type is (section_t)
    y = y + s%area
  end select
  deallocate(q)
  nullify(p)
end subroutine drive
