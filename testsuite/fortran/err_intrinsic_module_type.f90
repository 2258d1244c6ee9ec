! adgen-test
! head: p(y)/(x)
! expect-error: 'c_ptr' of the intrinsic module 'iso_c_binding' is not supported
! expect-error-line: 9
!
! Must be refused, at the USE statement: of the intrinsic modules adgen gives the kind
! constants and units, not types such as c_ptr.
subroutine p(x, y)
  use, intrinsic :: iso_c_binding, only: c_double, c_ptr
  implicit none
  real(c_double), intent(in) :: x
  real(c_double), intent(out) :: y
  y = x * x
end subroutine p
