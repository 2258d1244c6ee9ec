! adgen-test
! head: tests(y)/(x)
! arg x: real(8)[4] = uniform(0.1, 1)
! arg m: real(8)[3, 4] = uniform(-1, 1)
! arg y: real(8)
!
! matmul in the tests and bounds of control statements: an IF condition, an ELSE IF
! condition, a DO loop's bounds (size of the product: the rows of m, not its size), a DO
! WHILE condition evaluated at each iteration, and a SELECT CASE selector; each product
! computed into a temporary before the test.
subroutine tests(x, m, y)
  implicit none
  real(8), intent(in) :: x(4), m(3, 4)
  real(8), intent(out) :: y
  integer :: i
  y = 0.0d0
  if (maxval(abs(matmul(m, x))) > 0.01d0) y = x(1)
  if (y > 10.0d0) then
    y = 2.0d0
  else if (sum(matmul(m, x)) > -10.0d0) then
    y = y + x(3) * 2.0d0
  end if
  do i = 1, size(matmul(m, x))
    y = y + x(i) * sum(matmul(m, x) * x(1:3))
  end do
  i = 0
  do while (sum(matmul(m, x * y)) ** 2 < 50.0d0 .and. i < 5)
    y = y + x(2) + 0.1d0
    i = i + 1
  end do
  select case (int(sum(abs(matmul(m, x))) * 100.0d0))
  case (:0)
    y = y + x(4)
  case default
    y = y + x(1) ** 2
  end select
end subroutine tests
