! adgen-test
! head: pick(y)/(x)
! expect-error: pointer
! expect-error-line: 13-16
!
! POINTER variables are not supported: adgen must refuse the program with an error
! at the pointer's declaration or use.
subroutine pick(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), pointer :: p(:)
  allocate(p(n))
  p = x * x
  y = sum(p)
  deallocate(p)
end subroutine pick
