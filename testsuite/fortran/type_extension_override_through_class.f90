! adgen-test
! head: total(t)/(s)
! arg s: real(8) = uniform(0.5, 1.5)
! arg t: real(8)
!
! scaled_area's dummy is CLASS(shape_t), so Fortran calls through sh%area() the binding
! of the type of the object it is given, here square_t's override: the derivative code
! calls it too (a copy of scaled_area for square_t objects), not shape_t's.
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
