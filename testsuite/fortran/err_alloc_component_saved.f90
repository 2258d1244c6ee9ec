! adgen-test
! head: f(y)/(x)
! expect-error: the SAVEd local 'g', of type 'grid_t' which has allocatable components, is not supported
! expect-error-line: 18
!
! A SAVEd local structure with allocatable components keeps them allocated from one
! call to the next: refused.
module grids
  implicit none
  type :: grid_t
    integer :: n
    real(8), allocatable :: u(:)
  end type grid_t
contains
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    type(grid_t), save :: g
    if (.not. allocated(g%u)) allocate(g%u(2))
    g%u = x
    y = sum(g%u)
  end subroutine f
end module grids
