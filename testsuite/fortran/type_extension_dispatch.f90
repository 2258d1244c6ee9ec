! adgen-test
! head: dispatch(y)/(x)
! arg n: integer = 3
! arg x: real(8)[4] = uniform(0.5, 1.5)
! arg y: real(8)
!
! Type extension with type-bound procedures, as Fortran dispatches them: a binding
! inherited from the parent type (`call c%bump(d)`, `c%scaled(3d0)`), one overridden in
! the extended type (`energy`), a procedure of the parent type calling through its
! CLASS(base_t) dummy a binding an extension overrides (`self%energy()` in `scaled`, which
! runs child_energy for a child_t object), an object of the extended type passed for a
! CLASS(base_t) dummy of a procedure that is no binding (`total(c)`), and a CLASS dummy
! passed on to a TYPE(base_t) dummy (its parent part) and to another CLASS dummy; three
! levels (grand_t extends child_t); SELECT TYPE on a CLASS dummy (TYPE IS, CLASS IS of
! the nearest type). The type of every object is known where it is passed, so each call
! runs one procedure, and SELECT TYPE one block: a copy of the procedure for each type
! it is given.
module dispatch_shapes
  implicit none
  type :: base_t
    real(8) :: a
  contains
    procedure :: energy
    procedure :: scaled
    procedure :: bump
  end type base_t
  type, extends(base_t) :: child_t
    real(8) :: b
  contains
    procedure :: energy => child_energy
  end type child_t
  type, extends(child_t) :: grand_t
    real(8) :: g = 2d0
  contains
    procedure :: bump => grand_bump
  end type grand_t
contains
  real(8) function energy(self)
    class(base_t), intent(in) :: self
    energy = self%a**2
  end function energy

  real(8) function child_energy(self)
    class(child_t), intent(in) :: self
    child_energy = self%a**2 + sin(self%b) * self%a
  end function child_energy

  real(8) function scaled(self, f)
    class(base_t), intent(in) :: self
    real(8), intent(in) :: f
    scaled = f * self%energy()
  end function scaled

  subroutine shift(p, d)
    type(base_t), intent(inout) :: p
    real(8), intent(in) :: d
    p%a = p%a + d * cos(p%a)
  end subroutine shift

  subroutine bump(self, d)
    class(base_t), intent(inout) :: self
    real(8), intent(in) :: d
    self%a = self%a + d * self%a
    call shift(self, d)
  end subroutine bump

  subroutine grand_bump(self, d)
    class(grand_t), intent(inout) :: self
    real(8), intent(in) :: d
    self%b = self%b * self%g + d
    self%a = self%a - d * self%b
  end subroutine grand_bump

  real(8) function total(obj)
    class(base_t), intent(in) :: obj
    total = obj%scaled(2d0) + obj%a + weighted(obj)
  end function total

  real(8) function weighted(obj)
    class(base_t), intent(in) :: obj
    weighted = 0.5d0 * obj%energy()
    select type (obj)
    type is (child_t)
      weighted = weighted + obj%b * obj%a
    class is (child_t)
      weighted = weighted - obj%b
    class is (base_t)
      weighted = weighted * obj%a
    end select
  end function weighted
end module dispatch_shapes

subroutine dispatch(n, x, y)
  use dispatch_shapes
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y
  type(base_t) :: p
  type(child_t) :: c
  type(grand_t) :: q
  integer :: i
  p%a = x(1)
  c%a = x(2)
  c%b = x(3)
  q%a = x(4)
  q%b = x(1) * x(2)
  do i = 1, n
    call c%bump(0.5d0 / i)
    call p%bump(0.1d0)
    call q%bump(0.2d0)
    call q%child_t%bump(0.05d0)
  end do
  y = p%energy() + c%energy() + q%energy()
  y = y + c%scaled(3d0) + p%scaled(1.5d0) + q%scaled(0.5d0)
  y = y + total(c) + total(p) + total(q) + weighted(q%child_t)
end subroutine dispatch
