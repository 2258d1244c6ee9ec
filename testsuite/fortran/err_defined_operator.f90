! adgen-test
! head: s(y)/(x)
! expect-error: on values of a derived type: no specific procedure of `interface operator(+)` takes these operands
! expect-error-line: 32
!
! Must be refused: an operator on values of a derived type that the `interface
! operator(+)` defines for two of them, applied to one and a real (gfortran refuses it
! too); once, the output had `q = p + 2` on a C struct.
module vec
  implicit none
  type v2
    real(8) :: a, b
  end type v2
  interface operator(+)
    module procedure add
  end interface
contains
  function add(p, q) result(r)
    type(v2), intent(in) :: p, q
    type(v2) :: r
    r%a = p%a + q%a
    r%b = p%b + q%b
  end function add
end module vec
subroutine s(x, y)
  use vec
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  type(v2) :: p, q
  p%a = x
  p%b = 2 * x
  q = p + 2d0
  y = q%a * q%b
end subroutine s
