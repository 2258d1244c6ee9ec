! adgen-test
! head: select(cost)/(x w)
! arg n: integer = 8
! arg x: real(8)[n] = uniform(0.2, 1)
! arg w: real(8)[2, 4] = uniform(-1, 1)
! arg cost: real(8)
!
! pack(array, mask) as the whole right side of an assignment: to an allocatable array (of
! the count of mask's true elements), to a section of that length, of an array expression,
! of a matrix (its elements in array element order), with a mask of another array, with a
! scalar mask, and of the array it is assigned to.
subroutine select(n, x, w, cost)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w(2, 4)
  real(8), intent(out) :: cost
  real(8), allocatable :: p(:), q(:), r(:)
  real(8) :: z(n)
  logical :: big(n)
  integer :: c
  big = x > 0.6d0
  p = pack(x, big)
  c = count(big)
  z = 0.0d0
  z(1:c) = pack(sin(x) * x, big)
  q = pack(w, w > 0.0d0)
  r = pack(x * 2.0d0, .true.)
  r = pack(r, r < 1.5d0)
  cost = sum(p**2) + size(p) + sum(z * x) + sum(q**3) + size(q) + sum(r) * size(r)
end subroutine select
