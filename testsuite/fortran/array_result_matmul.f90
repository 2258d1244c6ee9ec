! adgen-test
! head: mm(y)/(a x)
! arg n: integer = 3
! arg a: real(8)[n, n] = uniform(-1, 1)
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
!
! A function returning a matrix inside matmul and inside sum(..., dim=2): the function's
! value is computed first, into a temporary the product and the reduction read.
module m6
  implicit none
contains
  function sym(a, n) result(s)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n, n)
    real(8) :: s(n, n)
    s = 0.5d0 * (a + transpose(a))
  end function sym
end module m6
subroutine mm(n, a, x, y)
  use m6
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), x(n)
  real(8), intent(out) :: y(n)
  y = matmul(sym(a, n), x) + matmul(a, x)
  y = y + sum(sym(a, n), dim=2)
end subroutine mm
