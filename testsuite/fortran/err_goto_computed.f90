! adgen-test
! head: pick(y)/(x)
! expect-error: computed GOTO
! expect-error-line: 15
!
! A computed GOTO (GO TO (10, 20, 30) k) jumps to a label chosen at run time: adgen
! lowers only plain GOTOs to structured code, so it must refuse it at its line.
subroutine pick(k, x, y)
  implicit none
  integer, intent(in) :: k
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  y = x
  if (k < 1) return
  go to (10, 20, 30) k
10 y = y * x
20 y = y * x
30 y = y + 1.0d0
end subroutine pick
