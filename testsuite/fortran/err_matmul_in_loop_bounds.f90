! adgen-test
! head: f(y)/(x)
! expect-error: matmul is supported in assignments and in the arguments of a CALL
! expect-error-line: 14
!
! The extent of matmul's value is that of its product, not of its first argument: size() of
! it in a loop's bounds is refused, as it has no temporary there.
subroutine f(x, m, y)
  implicit none
  real(8), intent(in) :: x(4), m(3, 4)
  real(8), intent(out) :: y
  integer :: i
  y = 0.0d0
  do i = 1, size(matmul(m, x))
    y = y + x(i)
  end do
end subroutine f
