! adgen-test
! head: drive(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.2, 1.4)
! arg y: real(8)
!
! Separate module procedures whose bodies are in a submodule (Fortran 2008), as modern
! libraries split interface and implementation: a module function and a module
! subroutine declared by interfaces in the module, one of them the specific of a generic
! interface, their bodies in `submodule (shapes) shapes_impl`; callers use the module.
! gfortran's symbols are the module's (`__shapes_MOD_area`). Before: "call to unknown
! external function 'area'" (and "no specific procedure of the interface takes these
! arguments" through the generic).
module shapes
  implicit none
  interface
    module function area(r) result(a)
      real(8), intent(in) :: r
      real(8) :: a
    end function area
    module subroutine scale_all(n, x, s)
      integer, intent(in) :: n
      real(8), intent(inout) :: x(n)
      real(8), intent(in) :: s
    end subroutine scale_all
  end interface
  interface volume
    module function ball_volume(r) result(v)
      real(8), intent(in) :: r
      real(8) :: v
    end function ball_volume
  end interface
end module shapes

submodule (shapes) shapes_impl
  implicit none
contains
  module function area(r) result(a)
    real(8), intent(in) :: r
    real(8) :: a
    a = 3.14159265358979d0 * r * r
  end function area

  module subroutine scale_all(n, x, s)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8), intent(in) :: s
    x = x * s
  end subroutine scale_all

  module function ball_volume(r) result(v)
    real(8), intent(in) :: r
    real(8) :: v
    v = 4d0 / 3d0 * r * area(r)
  end function ball_volume
end submodule shapes_impl

subroutine drive(n, x, y)
  use shapes, only: area, scale_all, volume
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: w(n)
  integer :: i
  w = x
  call scale_all(n, w, 0.5d0)
  y = 0
  do i = 1, n
    y = y + area(w(i)) + volume(x(i))
  end do
end subroutine drive
