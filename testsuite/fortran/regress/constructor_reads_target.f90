! adgen-test
! head: f(e)/(x)
! arg x: real(8)[3] = uniform(-1, 1)
! arg e: real(8)
!
! An array constructor assigned to the array it reads: all its values first, then the
! assignment. The elements were assigned one by one, later values reading new ones (a
! wrong primal and wrong derivatives).
subroutine f(x, e)
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: e
  real(8) :: v(3)
  v = x
  v = [v(2), v(1) * 2d0, v(3)]
  e = v(1) + 3d0 * v(2) ** 2 + v(3)
end subroutine f
