! adgen-test
! head: smooth(e)/(x c)
! arg n: integer = 8
! arg x: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = 0.3
! arg e: real(8)
!
! DO CONCURRENT with one index (and a step): its iterations are independent, run in order.
subroutine smooth(n, x, c, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), c
  real(8), intent(out) :: e
  real(8) :: w(n)
  integer :: i
  w = 0d0
  do concurrent (i = 2:n-1)
    w(i) = c * x(i - 1) + (1d0 - 2d0 * c) * sin(x(i)) + c * x(i + 1)
  end do
  do concurrent (i = n:1:-3)
    w(i) = w(i) * x(i)
  end do
  e = sum(w ** 2)
end subroutine smooth
