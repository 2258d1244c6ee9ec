! adgen-test
! head: grow(cost)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1)
! arg cost: real(8)
!
! Assignment to a whole local allocatable array allocates it, as Fortran 2003 asks (and
! gfortran does): when it is not allocated, or has another shape (freed first), to the
! shape of the value, with the value's lower bounds (those of a whole array, else 1): in a
! loop whose values grow, from an array with lower bound 0, from reshape, from array
! constructors of items and of an implied-DO, and from a value that reads the array with
! its own shape (never reallocated).
subroutine grow(n, x, cost)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: cost
  real(8), allocatable :: a(:), w(:, :), z(:)
  real(8) :: b(0:n - 1)
  integer :: k, i
  cost = 0.0d0
  do k = 1, n
    a = x(1:k) * x(k)
    cost = cost + sum(a**2) + lbound(a, 1) + size(a)
  end do
  b = x * 0.5d0
  z = b
  cost = cost + sum(z) * lbound(z, 1) + size(z) + ubound(z, 1)
  w = reshape(x, [2, n / 2])
  w = w * 2.0d0
  cost = cost + sum(sin(w)) + size(w, 2)
  z = [x(1), x(2), 3.0d0]
  cost = cost + sum(z**3) + size(z)
  z = [(x(i) * i, i = 1, n, 2), x(n)]
  cost = cost + sum(z) + size(z)
  deallocate(a)
  a = z(2:)
  cost = cost + sum(a) * size(a)
end subroutine grow
