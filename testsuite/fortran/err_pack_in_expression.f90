! adgen-test
! head: f(y)/(x)
! expect-error: pack is supported in assignments and the arguments of a CALL
! expect-error-line: 13
!
! pack in a condition is refused: its value would need a temporary before the IF (in an
! assignment or a CALL it gets one; testsuite/fortran/pack_in_expressions.f90).
subroutine f(x, y)
  implicit none
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y
  y = 0.0d0
  if (sum(pack(x, x > 0.5d0)) > 1.0d0) y = x(1)
end subroutine f
