! adgen-test
! head: f(y)/(x)
! expect-error: function 'make' returns a structure with allocatable components: supported in assignments and CALL statements, not here
! expect-error-line: 30
!
! A function whose result is a structure with allocatable components is called before the
! assignment or CALL statement that references it, into a temporary structure; in a
! condition (evaluated again at each test) it is refused.
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
  real(8) function first(g)
    type(grid_t), intent(in) :: g
    first = g%u(1)
  end function first
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x
    if (first(make(x)) > 0.0d0) y = 2.0d0 * x
  end subroutine f
end module grids
