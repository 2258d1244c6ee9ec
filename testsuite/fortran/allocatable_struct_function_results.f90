! adgen-test
! head: cost(J)/(L x)
! arg n: integer = 5
! arg L: real(8) = 1.3
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg J: real(8)
!
! Functions whose result is a structure with allocatable components: each is a
! subroutine with the result as one more dummy argument, which the caller passes a
! temporary structure of its own; the caller's variable then gets the result's components
! (the allocatable ones reallocated to the result's bounds) and the temporary's storage is
! freed after the statement. Called twice, with the type before FUNCTION, one result
! passed on to another function, to a subroutine and to a function in an expression, and
! in a loop where the grid gets another length at each iteration, so that the backward
! sweep must restore the arrays the assignments reallocate and overwrite. The type comes
! from another module, with a default value (the result's is set where the function
! starts).
module grid_types
  implicit none
  type grid
    integer :: n = 0
    real(8) :: h
    real(8), allocatable :: x(:)
  end type
end module grid_types

module grids
  use grid_types
  implicit none
contains
  function make_grid(n, L) result(g)
    integer, intent(in) :: n
    real(8), intent(in) :: L
    type(grid) :: g
    integer :: i
    g%n = n
    g%h = L / n
    allocate(g%x(0:n - 1))
    do i = 0, n - 1
      g%x(i) = (i + 1) * g%h
    end do
  end function

  type(grid) function stretched(g, v)
    type(grid), intent(in) :: g
    real(8), intent(in) :: v(:)
    integer :: i
    stretched%n = g%n
    stretched%h = g%h * v(1)
    allocate(stretched%x(g%n))
    do i = 1, g%n
      stretched%x(i) = g%x(lbound(g%x, 1) + i - 1) * v(mod(i - 1, size(v)) + 1)
    end do
  end function

  subroutine add_energy(g, J)
    type(grid), intent(in) :: g
    real(8), intent(inout) :: J
    J = J + g%h * sum(sin(g%x)**2)
  end subroutine

  real(8) function extent_len(g)
    type(grid), intent(in) :: g
    extent_len = g%h * size(g%x)
  end function

  subroutine cost(n, L, x, J)
    integer, intent(in) :: n
    real(8), intent(in) :: L
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: J
    type(grid) :: g, g2
    integer :: k
    g = make_grid(n, L)
    g2 = make_grid(n + 2, 2.0d0 * L)
    J = sum(g%x**2) + g2%h * sum(g2%x) + lbound(g%x, 1)
    do k = 1, 3
      g = stretched(make_grid(n + k, L * x(k)), x)
      J = J + sum(g%x * g%x(lbound(g%x, 1))) + ubound(g%x, 1)
      g2 = make_grid(n - k + 1, g%x(1))
      J = J + g2%x(g2%n - 1) * g%h
      call add_energy(stretched(g2, x(k:)), J)
      J = J + extent_len(make_grid(k, x(k))) * extent_len(g)
    end do
  end subroutine
end module
