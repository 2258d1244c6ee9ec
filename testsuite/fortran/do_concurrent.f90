! adgen-test
! head: smooth(e)/(x c)
! arg n: integer = 8
! arg x: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = 0.3
! arg e: real(8)
!
! DO CONCURRENT with one index (and a step), with two indices and a mask: nested loops run
! in order. Its indices are its own: i keeps, after the constructs, the value it had.
subroutine smooth(n, x, c, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), c
  real(8), intent(out) :: e
  real(8) :: w(n), p(n, 3)
  integer :: i, j
  i = 3
  w = 0d0
  do concurrent (i = 2:n-1)
    w(i) = c * x(i - 1) + (1d0 - 2d0 * c) * sin(x(i)) + c * x(i + 1)
  end do
  do concurrent (i = n:1:-3)
    w(i) = w(i) * x(i)
  end do
  p = 0d0
  do concurrent (j = 1:3, i = 1:n, x(i) > 0d0 .and. j /= 2)
    p(i, j) = x(i) ** j * w(i)
  end do
  e = sum(w ** 2) + sum(p) * x(i)
end subroutine smooth
