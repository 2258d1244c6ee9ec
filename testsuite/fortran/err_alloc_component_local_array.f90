! adgen-test
! head: f(y)/(x)
! expect-error: the local array 'gs', of type 'grid_t' which has allocatable components, is not supported
! expect-error-line: 18
!
! A local array of structures with allocatable components: refused (a scalar local
! structure is supported).
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
    type(grid_t) :: gs(2)
    allocate(gs(1)%u(2))
    gs(1)%u = x
    y = sum(gs(1)%u)
  end subroutine f
end module grids
