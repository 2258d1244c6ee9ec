! adgen-test
! head: s(y)/(x)
! expect-error: defined assignment (`interface assignment(=)`) is not supported
! expect-error-line: 13
!
! Must be refused, at the interface: with a defined assignment, `p = x` calls set_v2
! (the output had `p.a = x->a`, copying the structure from the number).
module va
  implicit none
  type v2
    real(8) :: a
  end type v2
  interface assignment(=)
    module procedure set_v2
  end interface
contains
  subroutine set_v2(p, x)
    type(v2), intent(out) :: p
    real(8), intent(in) :: x
    p%a = 2 * x
  end subroutine set_v2
end module va
subroutine s(x, y)
  use va
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  type(v2) :: p
  p = x
  y = p%a
end subroutine s
