! adgen-test
! head: h(y)/(x)
! expect-error: the generic 'scale_it': no specific procedure of the interface takes these arguments
! expect-error-line: 28
!
! Must be refused: no specific procedure of the generic interface takes a rank-2 array
! (scale_it has a vector and a scalar one), so the call names none.
module ops2
  implicit none
  interface scale_it
    module procedure scale_vec, scale_scalar
  end interface scale_it
contains
  subroutine scale_vec(a)
    real(8), intent(inout) :: a(:)
    a = 2d0 * a
  end subroutine scale_vec
  subroutine scale_scalar(a)
    real(8), intent(inout) :: a
    a = 2d0 * a
  end subroutine scale_scalar
end module ops2
subroutine h(x, y)
  use ops2
  real(8), intent(in) :: x(2, 2)
  real(8), intent(out) :: y(2, 2)
  y = x
  call scale_it(y)
end subroutine h
