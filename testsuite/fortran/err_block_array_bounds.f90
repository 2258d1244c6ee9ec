! adgen-test
! head: f(y)/(x y)
! expect-error: array 'w' of a BLOCK needs constant bounds
! expect-error-line: 13
!
! An array declared in a BLOCK takes its bounds on entry to the block; adgen sizes local
! arrays on entry to the procedure, so only constant bounds are accepted there.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), y
  block
    real(8) :: w(n)
    w = x * x
    y = sum(w)
  end block
end subroutine f
