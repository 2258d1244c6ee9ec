! adgen-test
! head: choose(cost)/(x w)
! arg n: integer = 9
! arg x: real(8)[n] = uniform(0.1, 1)
! arg w: real(8)[n] = uniform(-1, 1)
! arg cost: real(8)
!
! pack(array, mask) inside expressions: in reductions, in dot_product, in size, as an
! actual argument, in an array expression assigned to an allocatable (allocated to the
! mask's count), a pack of a pack, of array constructors, and in a loop whose masks change
! with the iteration.
subroutine choose(n, x, w, cost)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w(n)
  real(8), intent(out) :: cost
  real(8), allocatable :: a(:)
  real(8) :: t
  integer :: i
  cost = sum(pack(x, x > 0.5d0) ** 2) + sum(pack(x * w, w > 0.0d0))
  cost = cost + dot_product(pack(x, w > 0.3d0), pack(w * x, w > 0.3d0)) * &
         size(pack(x, x < 0.7d0))
  a = 2.0d0 * pack(sin(x), w < 0.2d0) + 1.0d0
  cost = cost + sum(a * a) + size(a)
  cost = cost + sum(pack(pack(x, w > -0.5d0) * 3.0d0, pack(w, w > -0.5d0) < 0.5d0))
  cost = cost + sum(pack([x(1), w(2) * x(3), 3.0d0], [.true., x(2) > 0.5d0, w(1) > 0.0d0]))
  t = 0.0d0
  do i = 1, 3
    t = t + maxval(pack(x * t + w, x > 0.2d0 * i), 1, .true.) * sum(pack(x ** i, w > 0.0d0))
  end do
  call accumulate(size(pack(x, w > 0.1d0)), pack(cos(x) * t, w > 0.1d0), cost)
  cost = cost + t
contains
  subroutine accumulate(m, v, c)
    integer, intent(in) :: m
    real(8), intent(in) :: v(m)
    real(8), intent(inout) :: c
    c = c + sum(v * v) * m
  end subroutine accumulate
end subroutine choose
