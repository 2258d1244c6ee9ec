! adgen-test
! head: total(t)/(a)
! expect-error: assumed-shape
! expect-error-line: 11
!
! Assumed-shape dummy arguments (a(:)) are not supported yet (they are passed as
! array descriptors, and cannot be called without an interface): adgen must refuse
! them with an error at the declaration.
subroutine total(a, t)
  implicit none
  real(8), intent(in) :: a(:)
  real(8), intent(out) :: t
  t = sum(a**2)
end subroutine total
