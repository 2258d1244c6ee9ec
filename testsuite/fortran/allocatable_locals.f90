! adgen-test
! head: relax(cost)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg cost: real(8)
!
! Local allocatable arrays: allocated and deallocated on every pass of a loop, with other
! lower bounds, passed to a procedure with explicit-shape dummies, to one with
! assumed-shape dummies, in a function (freed at its end), in an assignment whose right
! side reads its target reversed (through a temporary on the heap), asked allocated(),
! size, lbound and ubound.
module helpers
  implicit none
contains
  subroutine scale_into(m, a, b, f)
    integer, intent(in) :: m
    real(8), intent(in) :: a(m), f
    real(8), intent(out) :: b(m)
    b = f * a + a**2
  end subroutine scale_into
  real(8) function energy(a)
    real(8), intent(in) :: a(:, :)
    integer :: j
    energy = 0d0
    do j = 1, size(a, 2)
      energy = energy + sum(a(:, j)**2) * j
    end do
  end function energy
  real(8) function total(m, a)
    integer, intent(in) :: m
    real(8), intent(in) :: a(m)
    real(8), allocatable :: t(:)
    allocate(t(m))
    t = sqrt(a + 1d0)
    total = sum(t)
  end function total
end module helpers

subroutine relax(n, x, cost)
  use helpers
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: cost
  real(8), allocatable :: a(:), b(:), g(:, :)
  integer :: pass, m, i
  allocate(g(0:1, n))
  do i = 1, n
    g(0, i) = x(i)
    g(1, i) = x(n + 1 - i) * x(i)
  end do
  cost = energy(g) + ubound(g, 1) + size(g) * lbound(g, 1)
  do pass = 1, 3
    m = n - pass + 1
    allocate(a(m), b(m))
    a = x(1:m) * pass
    call scale_into(m, a, b, 0.5d0)
    a = b(m:1:-1)
    cost = cost + total(m, a) + b(1)
    deallocate(a, b)
    if (.not. allocated(a)) cost = cost * 0.9d0
  end do
  if (allocated(g)) g = g * cost
end subroutine relax
