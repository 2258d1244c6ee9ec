! adgen-test
! head: smooth(e)/(u)
! arg n: integer = 7
! arg u: real(8)[n] = uniform(0.2, 0.8)
! arg e: real(8)
!
! Two work grids of constant size (480 KB each, in static memory, as gfortran keeps them)
! that loop nests and a whole-array assignment set before anything reads them: the
! derivative code does not clear them, nor their tangents, on entry; their adjoints, which
! the backward sweep adds into, it does.
subroutine smooth(n, u, e)
  implicit none
  integer, parameter :: nx = 300, ny = 200
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: e
  real(8) :: h(nx, ny), g(nx, ny)
  integer :: i, j
  do j = 1, ny
    do i = 1, nx
      h(i, j) = u(1 + mod(i + j, n)) * 0.5d0
    end do
  end do
  g = 0.0d0
  do j = 2, ny - 1
    do i = 2, nx - 1
      g(i, j) = h(i+1, j) + h(i-1, j) - 2.0d0 * h(i, j) + sin(h(i, j+1))
    end do
  end do
  e = 0.0d0
  do j = 1, ny
    do i = 1, nx
      e = e + 1.0d-4 * g(i, j)**2
    end do
  end do
end subroutine
