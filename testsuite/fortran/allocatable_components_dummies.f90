! adgen-test
! head: f(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
!
! An allocatable component passed to an allocatable dummy argument (which sees the
! bounds it was allocated with, 0:n-1 here) and to an assumed-shape one (bounds from 1).
module gm
  implicit none
  type :: grid_t
    real(8), allocatable :: u(:)
  end type grid_t
contains
  subroutine sq(u)
    real(8), allocatable, intent(inout) :: u(:)
    u(lbound(u, 1)) = 2.0d0 * u(lbound(u, 1))
    u = u**2
  end subroutine sq
  real(8) function first(v)
    real(8), intent(in) :: v(:)
    first = v(1) * size(v)
  end function first
  subroutine f(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    type(grid_t) :: g
    allocate(g%u(0:n-1))
    g%u = x
    call sq(g%u)
    y = sum(g%u * x) + g%u(0) + first(g%u(1:))
  end subroutine f
end module gm
