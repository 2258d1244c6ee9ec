! adgen-test
! head: total(t)/(a)
! expect-error: assumed-shape
! expect-error-line: 12
!
! A head whose dummy is assumed-shape (a(:)): its callers pass an array descriptor,
! which the derivative routine does not read, so adgen must refuse it with an error at
! the dummy's declaration (procedures with assumed-shape dummies are differentiated when
! another procedure of the program calls them).
subroutine total(a, t)
  implicit none
  real(8), intent(in) :: a(:)
  real(8), intent(out) :: t
  t = sum(a**2)
end subroutine total
