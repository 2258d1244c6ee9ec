! adgen-test
! head: grow_list(cost)/(x)
! arg n: integer = 7
! arg x: real(8)[n] = uniform(0.5, 1)
! arg cost: real(8)
!
! Allocatable arrays assigned values that read them with another shape, which Fortran
! evaluates before it reallocates them (the derivative code through a temporary): lists
! grown one element at a time (`a = [a, v]`, also an integer list allocated with no
! elements), an array shortened from its own section, and a fixed-size array rotated by a
! constructor of its sections; an array ALLOCATEd with one shape and assigned a value of
! another (outside loops: reallocated); a matrix assigned its own transpose (another shape
! when it is not square).
subroutine grow_list(n, x, cost)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: cost
  real(8), allocatable :: a(:), w(:), b(:), t(:, :)
  real(8) :: z(n)
  integer, allocatable :: idx(:)
  integer :: i
  a = [x(1)]
  allocate(idx(0))
  do i = 2, n
    a = [a, x(i) * a(i - 1)]
    if (x(i) > 0.7d0) idx = [idx, i]
  end do
  w = a(2:)
  w = w(2:) * 3.0d0
  z = x
  z = [z(2:n), z(1)]
  allocate(b(2))
  b = 1.0d0
  b = x(2:n) * b(1)
  t = reshape(x(1:6), [2, 3])
  t = transpose(t) * 2.0d0
  cost = sum(a**2) + sum(w) * size(w) + sum(x(idx)) + sum([w, 2.0d0 * x] ** 2) &
         + z(1) * z(n) + size(idx) + sum(b * x(1:n - 1)) + size(b) &
         + sum(t(3, :) * x(1:2)) + size(t, 1)
end subroutine grow_list
