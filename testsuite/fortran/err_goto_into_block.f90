! adgen-test
! head: branchy(y)/(x)
! expect-error: jumps into
! expect-error-line: 14
!
! A GOTO into an IF block from outside it (a legacy extension gfortran accepts with a
! warning): adgen must refuse it with an error at the GOTO.
subroutine branchy(x, y)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  integer :: i
  y = x
  if (x > 0.0d0) goto 10
  do i = 1, 3
    y = y * x
  end do
  if (y > 1.0d0) then
    y = y - 1.0d0
10  y = y * 2.0d0
  end if
end subroutine branchy
