! adgen-test
! head: f(y)/(x)
! arg n: integer = 7
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! maxloc and minloc without DIM: an array of one position, assigned to a one-element array.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: k(1), m(1)
  k = maxloc(x)
  m = minloc(x(2:n)) + 1
  y = x(k(1)) * x(m(1)) + sin(x(k(1)))
end subroutine f
