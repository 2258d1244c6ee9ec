! adgen-test
! head: put(g)/(h)
! expect-error: 'g(pick(k))' calls 'pick': a structure with allocatable components is assigned component by component, which would call it once per component; give its value to a variable first
! expect-error-line: 28
!
! A whole structure with allocatable components is assigned component by component, each
! copy naming the designators again: a function referenced in a subscript would run once
! per component, so it is refused (its value in a variable first is fine).
module picks
  implicit none
  type :: grid_t
    integer :: n
    real(8), allocatable :: u(:)
  end type grid_t
  integer :: calls = 0
contains
  integer function pick(k)
    integer, intent(in) :: k
    calls = calls + 1
    pick = k
  end function pick

  subroutine put(g, h)
    type(grid_t), intent(inout) :: g(:)
    type(grid_t), intent(in) :: h
    integer :: k
    k = 1
    g(pick(k)) = h
  end subroutine put

end module picks
