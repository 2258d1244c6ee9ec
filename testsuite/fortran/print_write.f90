! adgen-test
! head: noisy(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)[n]
! expect-warning: print
!
! print and write statements in the primal (to the screen, to unit 6, formatted):
! adgen leaves them out of the derivative code with a warning FILE:LINE: warning: ...
! on stderr.
subroutine noisy(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  integer :: i
  print *, 'noisy: n =', n
  do i = 1, n
    y(i) = x(i) * exp(-x(i))
    write(*, '(a, i3, es12.4)') ' y', i, y(i)
  end do
  write(6, *) 'sum', sum(y)
end subroutine noisy
