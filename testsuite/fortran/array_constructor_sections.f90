! adgen-test
! head: pack_up(cost)/(x w)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1)
! arg w: real(8)[2, 3] = uniform(-1, 1)
! arg cost: real(8)
!
! Array constructors with array items, assigned whole: sections, whole arrays (a matrix
! gives its elements in array element order), array expressions and array items of an
! implied-DO, into an array of fixed size and into an allocatable one that the assignment
! allocates to the constructor's length.
subroutine pack_up(n, x, w, cost)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w(2, 3)
  real(8), intent(out) :: cost
  real(8) :: z(n + 5), y(6)
  real(8), allocatable :: a(:)
  integer :: i, k
  k = n / 2
  z = [x(1:2), x(n), w, sin(x(k:n:2)) * 2.0d0]
  y = [(x(i:i + 1) * i, i = 1, 3)]
  a = [x(2:k), 0.5d0, w(2, :) ** 2]
  cost = sum(z * z(n + 5:1:-1)) + sum(y**3) + sum(a * a(size(a):1:-1)) &
         + size(a)
end subroutine pack_up
