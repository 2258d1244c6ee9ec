! adgen-test
! head: drive(y)/(x)
! expect-error: the polymorphic component 'model' of 'sim_t' (CLASS(model_t)) is not supported
! expect-error-line: 18
!
! A polymorphic component: each structure may hold an object of another type, which adgen
! does not follow (it follows the type a variable is given), so it is refused at its
! declaration.
module poly_component
  implicit none
  type :: model_t
    real(8) :: a
  contains
    procedure :: eval
  end type model_t
  type :: sim_t
    real(8) :: t
    class(model_t), allocatable :: model
  end type sim_t
contains
  real(8) function eval(self, x)
    class(model_t), intent(in) :: self
    real(8), intent(in) :: x
    eval = self%a * x
  end function eval
end module poly_component

subroutine drive(x, y)
  use poly_component
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  type(sim_t) :: s
  allocate(model_t :: s%model)
  s%model%a = 2d0
  select type (m => s%model)
  type is (model_t)
    y = m%eval(x)
  end select
end subroutine drive
