! adgen-test
! head: f(y)/(x)
! expect-error: function 'make' returns a structure with allocatable components and adgen has only its interface
! expect-error-line: 28
!
! A function whose result is a structure with allocatable components is called with the
! caller's temporary structure as one more argument: adgen needs its source for that, an
! interface is not enough.
module grids
  implicit none
  type :: grid_t
    real(8), allocatable :: u(:)
  end type grid_t
  interface
    function make(x) result(g)
      import :: grid_t
      real(8), intent(in) :: x
      type(grid_t) :: g
    end function make
  end interface
contains
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    type(grid_t) :: a
    allocate(a%u(2))
    a%u = x
    a = make(x)
    y = sum(a%u)
  end subroutine f
end module grids
