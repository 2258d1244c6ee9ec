! adgen-test
! head: f(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! Array constructors with implied-do lists inside expressions (`sum(x * [(dble(i), i =
! 1, n)])`, with a negative step, mixed with scalars, in dot_product) and one that reads
! the array it is assigned to (`v = [(v(n + 1 - i), i = 1, n)]`): each is computed into
! a temporary before the statement, as Fortran evaluates the right-hand side first.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: v(n)
  integer :: i
  y = sum(x * [(dble(i), i = 1, n)]) + dot_product(x, [(x(i)**2, i = n, 1, -1)])
  y = y + sum([(x(i) * i, i = 1, n, 2), 1d0, (x(i), i = 2, 3)])
  v = x
  v = [(v(n + 1 - i) * i, i = 1, n)]
  y = y + v(1) + 3d0 * v(2)**2 + v(n)
end subroutine f
