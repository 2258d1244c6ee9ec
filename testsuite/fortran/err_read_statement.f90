! adgen-test
! head: rd(y)/(x)
! expect-error: a READ statement sets variables from outside the program
! expect-error-line: 14
!
! Must be refused: a READ sets a variable the routine then computes with; left out of
! the derivative code (as WRITE is), the variable would keep whatever it held.
subroutine rd(x, y)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  real(8) :: c
  c = 1d0
  read(*, *) c
  y = c * x
end subroutine rd
