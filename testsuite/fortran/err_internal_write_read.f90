! adgen-test
! head: f(y)/(x)
! expect-error: a WRITE into the CHARACTER variable 'tag' sets it
! expect-error-line: 16
!
! A WRITE into a CHARACTER variable (an internal file) sets it; the derivative code
! leaves WRITE out, so a variable written so and then compared would hold other text
! than in the primal: refused. A message written for output or handed to a reporting
! routine is left out with a warning (testsuite/fortran/physics_idioms.f90).
subroutine f(x, y, n)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  integer, intent(in) :: n
  character(len=20) :: tag
  write(tag, '(i0)') n
  y = x * x
  if (tag(1:1) == '3') y = y * 2
end subroutine f
