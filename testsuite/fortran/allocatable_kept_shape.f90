! adgen-test
! head: settle(cost)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1)
! arg cost: real(8)
!
! Whole-array assignments to allocatable arrays that keep their storage: one the procedure
! ALLOCATEs, assigned in a BINOMIAL-CKP loop; an allocatable dummy; a host's array in an
! internal procedure; a component. Fortran would reallocate them for a value of another
! shape, which the derivative code does not do: it checks the shapes at run time (see
! test_fortran.py for a failing check) and, when they agree as here, assigns as Fortran
! does.
module settle_types
  implicit none
  type pair
    real(8), allocatable :: w(:)
  end type pair
contains
  subroutine refill(a, x, k)
    real(8), allocatable, intent(inout) :: a(:)
    real(8), intent(in) :: x(:)
    integer, intent(in) :: k
    a = x(1:k) ** 2
  end subroutine refill
end module settle_types

subroutine settle(n, x, cost)
  use settle_types
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: cost
  real(8), allocatable :: a(:), b(:, :)
  type(pair) :: s
  integer :: m, step
  m = n / 2
  allocate(a(n), b(2, m), s%w(0:m - 1))
  a = x * 1.5d0
  call refill(a, x, n)
  b = 0.0d0
  !$AD BINOMIAL-CKP 4 2 1
  do step = 1, 4
    b = reshape(x, [2, m]) + b * 0.5d0
  end do
  s%w = x(1:n:2) * x(2:n:2)
  call inner()
  cost = sum(a * x) + sum(sin(b)) + sum(s%w) + lbound(s%w, 1)
contains
  subroutine inner()
    a = a(n:1:-1) * x
    b = b * 2.0d0
  end subroutine inner
end subroutine settle
