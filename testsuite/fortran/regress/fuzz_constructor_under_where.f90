! adgen-test
! head: f(e)/(x)
! arg x: real(8)[4] = uniform(-1, 1)
! arg e: real(8)
!
! An array constructor assigned under WHERE / ELSEWHERE: only the elements the mask selects
! take its values. All elements were assigned, the mask ignored (a wrong primal and wrong
! derivatives; Fortran random program 5800033).
subroutine f(x, e)
  implicit none
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: e
  real(8) :: v(3), w(3)
  v = x(1:3)
  w = 0.5d0
  where (x(2:4) < 0.1d0)
    v = [x(4), 2d0 * x(1), x(2) * x(3)]
  elsewhere
    w = [x(1) ** 2, x(2), 0.25d0]
  end where
  e = sum(v * w) + v(2) ** 2
end subroutine f
