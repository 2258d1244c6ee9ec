! adgen-test
! head: f(y)/(x)
! expect-error: the function 'positive' returns an ALLOCATABLE array: not supported
! expect-error-line: 11
!
! A function whose array result is ALLOCATABLE (its shape known only once it has run) is
! refused where it is defined (its callers would need a temporary of that shape).
module picks
  implicit none
contains
  function positive(x) result(r)
    real(8), intent(in) :: x(:)
    real(8), allocatable :: r(:)
    r = pack(x, x > 0.0d0) * 2.0d0
  end function positive
end module picks

subroutine f(n, x, y)
  use picks
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  y = sum(positive(x - 0.5d0) ** 2)
end subroutine f
