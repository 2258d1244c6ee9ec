! adgen-test
! head: f(y)/(x)
! arg x: real(8) = 0.7d0
! arg y: real(8)
!
! A first-call initialization whose flag is a SAVEd CHARACTER variable (`if (state ==
! 'cold')`, set in the block with a SAVEd table): the output's copies may be set a call
! later than the program's, but to the same values, so it is accepted.
subroutine f(x, y)
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  character(len=4), save :: state = 'cold'
  real(8), save :: coef(3)
  integer :: k
  if (state == 'cold') then
    do k = 1, 3
      coef(k) = 1d0 / k
    end do
    state = 'warm'
  end if
  y = coef(1) * x + coef(2) * x**2 + coef(3) * sin(x)
end subroutine f
