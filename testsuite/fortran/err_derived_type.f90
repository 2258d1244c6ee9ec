! adgen-test
! head: move(p)/(v)
! expect-error: derived type
! expect-error-line: 10-12, 15-18
!
! Derived types are not supported: adgen must refuse the program with an error at
! the type's definition or use (FILE:LINE:COL: error: ...).
module particles
  implicit none
  type particle
    real(8) :: x, y
  end type particle
contains
  subroutine move(p, v)
    type(particle), intent(inout) :: p
    real(8), intent(in) :: v(2)
    p%x = p%x + v(1)
    p%y = p%y + v(2)
  end subroutine move
end module particles
