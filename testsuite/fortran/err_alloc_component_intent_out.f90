! adgen-test
! head: f(y)/(x)
! expect-error: the INTENT(OUT) dummy argument 'g', of type 'grid_t' which has allocatable components, is not supported
! expect-error-line: 16
!
! An INTENT(OUT) dummy of a type with allocatable components has them deallocated on
! entry in Fortran: refused.
module grids
  implicit none
  type :: grid_t
    integer :: n
    real(8), allocatable :: u(:)
  end type grid_t
contains
  subroutine fill(g, x)
    type(grid_t), intent(out) :: g
    real(8), intent(in) :: x
    allocate(g%u(2))
    g%u = x
  end subroutine fill
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    type(grid_t) :: g
    call fill(g, x)
    y = sum(g%u)
  end subroutine f
end module grids
