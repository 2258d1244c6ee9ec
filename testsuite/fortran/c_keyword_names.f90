! adgen-test
! head: scale_sum(y)/(x a b)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(-1, 1)
! arg a: real(8) = 0.7
! arg b: real(8) = 1.3
! arg k: integer = 3
! arg y: real(8)
!
! Dummy arguments, locals and a COMMON member named like C keywords (double, static, int,
! void, long) or like a function the generated code calls (floor) get other C names in the
! generated code.
! (The head's own dummies keep plain names here because the test driver is C;
! test_fortran.py differentiates a head whose dummies have such names.)
subroutine scale_sum(n, x, a, b, k, y)
  implicit none
  integer, intent(in) :: n, k
  real(8), intent(in) :: x(n), a, b
  real(8), intent(out) :: y
  call kernel(n, x, a, b, k, y)
end subroutine scale_sum

subroutine kernel(n, x, double, floor, static, y)
  implicit none
  integer, intent(in) :: n, static
  real(8), intent(in) :: x(n), double, floor
  real(8), intent(out) :: y
  integer :: i
  real(8) :: int, void, long
  common /state/ long
  y = 0d0
  long = floor * x(1)
  do i = 1, n
    int = x(i) * double + floor
    void = sin(int) * aint(floor) + floor * floor
    y = y + void * static + long * int
  end do
end subroutine kernel
