! adgen-test
! head: tangle(y)/(x)
! expect-error: overlaps
! expect-error-line: 20
!
! Two loops formed by backward GOTOs that overlap without one containing the other
! (`goto 10` jumps back into the middle of the loop of label 20): adgen turns each
! backward GOTO into a loop, which needs them nested, so it must refuse the program.
subroutine tangle(x, y)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  integer :: k
  k = 0
  y = x
10 y = y * 0.9d0
20 k = k + 1
  if (y > 0.5d0) goto 10
  y = y + 0.1d0
  if (k < 20) goto 20
end subroutine tangle
