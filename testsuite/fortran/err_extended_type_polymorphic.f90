! adgen-test
! head: total(t)/(s)
! expect-error: 'sq', of type 'square_t', is passed for the CLASS(shape_t) dummy 'sh' of 'scaled_area': an object of an extended type passed as one of its parent type (polymorphism) is not supported
! expect-error-line: 42
!
! Must be refused, at the call: scaled_area's dummy is CLASS(shape_t), so Fortran calls
! through sh%area() the binding of the type the object has when run, here square_t's
! override; read as shape_t, the derivative code would call shape_t's.
module shapes
  implicit none
  type :: shape_t
    real(8) :: side
  contains
    procedure :: area
  end type shape_t
  type, extends(shape_t) :: square_t
    real(8) :: weight
  contains
    procedure :: area => square_area
  end type square_t
contains
  real(8) function area(sh)
    class(shape_t), intent(in) :: sh
    area = sh%side
  end function area
  real(8) function square_area(sh)
    class(square_t), intent(in) :: sh
    square_area = sh%weight * sh%side**2
  end function square_area
  real(8) function scaled_area(sh, c)
    class(shape_t), intent(in) :: sh
    real(8), intent(in) :: c
    scaled_area = c * sh%area()
  end function scaled_area
  subroutine total(s, t)
    real(8), intent(in) :: s
    real(8), intent(out) :: t
    type(square_t) :: sq
    sq%side = s
    sq%weight = 2d0
    t = 0d0
    t = t + scaled_area(sq, 3d0)
  end subroutine total
end module shapes
