! adgen-test
! head: response(y)/(x)
! expect-error: the SAVEd variable 'calls' of 'response' keeps its value from one call of 'response' to the next
! expect-error-line: 12
!
! Must be refused: a SAVEd counter the routine branches on lives in the program's object;
! the output could only keep its own copy, out of step with it from the second call on.
subroutine response(x, y)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  integer, save :: calls = 0
  calls = calls + 1
  if (calls > 1) then
    y = x * x
  else
    y = x
  end if
end subroutine response
