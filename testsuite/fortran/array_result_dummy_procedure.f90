! adgen-test
! head: hh(y)/(x)
! arg x: real(8)[3] = uniform(-1, 1)
! arg y: real(8)[3]
!
! Dummy procedures whose interface returns an array (an interface block, and
! `procedure(sq)`), given a module function that does: their references are calls
! through the dummy, with the result as one more argument, as for the functions of the
! program.
module m4
  implicit none
contains
  function sq(v) result(r)
    real(8), intent(in) :: v(3)
    real(8) :: r(3)
    r = v * v
  end function sq
  subroutine apply(f, x, y)
    interface
      function f(v) result(r)
        real(8), intent(in) :: v(3)
        real(8) :: r(3)
      end function f
    end interface
    real(8), intent(in) :: x(3)
    real(8), intent(out) :: y(3)
    y = f(x) + 1d0
  end subroutine apply

  subroutine apply_like(f, x, y)
    procedure(sq) :: f
    real(8), intent(in) :: x(3)
    real(8), intent(inout) :: y(3)
    y = y * f(x)
  end subroutine apply_like
end module m4
subroutine hh(x, y)
  use m4
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y(3)
  call apply(sq, x, y)
  call apply_like(sq, x, y)
end subroutine hh
