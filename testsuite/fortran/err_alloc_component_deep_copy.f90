! adgen-test
! head: f(y)/(x)
! expect-error: assignment of a whole structure of type 'grid_t', which has allocatable components, is not supported
! expect-error-line: 21
!
! Intrinsic assignment of a whole structure with allocatable components copies what they
! hold (a deep copy) in Fortran; a C struct copy would share the storage: refused.
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
    type(grid_t) :: a, b
    allocate(a%u(3))
    a%u = x
    b = a
    b%u(1) = 2.0d0 * x
    y = sum(a%u) + sum(b%u)
  end subroutine f
end module grids
