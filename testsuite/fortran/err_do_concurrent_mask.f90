! adgen-test
! head: f(y)/(x)
! expect-error: DO CONCURRENT with several indices or a mask is not supported
! expect-error-line: 14
!
! DO CONCURRENT with a mask (or several indices) is refused.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  integer :: i
  y = 0d0
  do concurrent (i = 1:n, x(i) > 0d0)
    y(i) = x(i) ** 2
  end do
end subroutine f
