! adgen-test
! head: f(y)/(x)
! expect-error: the SAVEd variable 'seen' of 'f' keeps its value from one call of 'f' to the next
! expect-error-line: 11
!
! Must be refused: a SAVEd CHARACTER flag the routine sets on its first call (written
! character by character in C) and tests on the next ones, as a SAVEd counter is.
subroutine f(x, y)
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  character(len=1), save :: seen(2) = ['n', 'n']
  if (seen(1) == 'n') then
    y = x * x
    seen(1) = 'y'
  else
    y = sin(x)
  end if
end subroutine f
