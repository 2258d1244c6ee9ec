! adgen-test
! head: f(y)/(x)
! expect-error: the function result 'r', of type 'grid_t' which has allocatable components, is not supported
! expect-error-line: 16
!
! A function whose result is a structure with allocatable components: refused.
module grids
  implicit none
  type :: grid_t
    integer :: n
    real(8), allocatable :: u(:)
  end type grid_t
contains
  function make(x) result(r)
    real(8), intent(in) :: x
    type(grid_t) :: r
    allocate(r%u(2))
    r%u = x
  end function make
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    type(grid_t) :: g
    allocate(g%u(2))
    g%u = x
    y = sum(g%u)
    y = y + make(x)%u(1)
  end subroutine f
end module grids
