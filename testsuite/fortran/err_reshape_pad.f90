! adgen-test
! head: f(b)/(a)
! expect-error: reshape is supported with SOURCE and SHAPE only (not PAD or ORDER)
! expect-error-line: 12
!
! reshape with PAD (or ORDER) is refused.
subroutine f(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(2, n)
  b = reshape(a, [2, n], pad=[0d0])
end subroutine f
