! adgen-test
! head: drive(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.2, 1.4)
! arg y: real(8)
!
! Separate module procedures whose bodies in the submodule are written without their
! dummies (`module procedure f ... end procedure f`), which take their dummies, their
! declarations and their results from the interfaces in the module: a subroutine with
! scalar dummies, a function with a RESULT name, a function whose result is its own name,
! a subroutine with array dummies, one body calling another of the module, a body with
! its own local declarations, one with a GOTO to its labelled END PROCEDURE, and one of
! them the specific of a generic interface.
! Before: "a separate module procedure written without its dummies is not supported".
module shapes_sep
  implicit none
  interface
    module subroutine wave(x, y)
      real(8), intent(in) :: x
      real(8), intent(out) :: y
    end subroutine wave
    module function area(r) result(a)
      real(8), intent(in) :: r
      real(8) :: a
    end function area
    module function cube(r)
      real(8), intent(in) :: r
      real(8) :: cube
    end function cube
    module subroutine smooth(n, x, w)
      integer, intent(in) :: n
      real(8), intent(in) :: x(n)
      real(8), intent(out) :: w(n)
    end subroutine smooth
  end interface
  interface volume
    module function ball_volume(r) result(v)
      real(8), intent(in) :: r
      real(8) :: v
    end function ball_volume
  end interface
end module shapes_sep

submodule (shapes_sep) shapes_sep_impl
  implicit none
contains
  module procedure wave
    y = sin(x) * x
    if (x > 1d3) goto 10
    y = y + 0.1d0 * x * x
10 end procedure wave

  module procedure area
    a = 3.14159265358979d0 * r * r
  end procedure area

  module procedure cube
    cube = r * r * r
  end procedure

  module procedure smooth
    integer :: i
    real(8) :: left, right
    do i = 1, n
      left = x(max(i - 1, 1))
      right = x(min(i + 1, n))
      w(i) = 0.25d0 * left + 0.5d0 * x(i) + 0.25d0 * right
    end do
  end procedure smooth

  module procedure ball_volume
    v = 4d0 / 3d0 * r * area(r) + cube(r)
  end procedure ball_volume
end submodule shapes_sep_impl

subroutine drive(n, x, y)
  use shapes_sep, only: wave, area, smooth, volume
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: w(n), s
  integer :: i
  call smooth(n, x, w)
  y = 0
  do i = 1, n
    call wave(w(i), s)
    y = y + s * area(w(i)) + volume(x(i))
  end do
end subroutine drive
