! adgen-test
! head: total(t)/(x)
! expect-error: 'scaled' returns an ALLOCATABLE array: supported in assignments and CALL statements, not in a condition
! expect-error-line: 27
!
! A function with an ALLOCATABLE result hands the caller storage that the caller frees
! after the statement; a condition or loop bound (which a DO WHILE evaluates again at each
! iteration) has no such place, and is refused.
module m
  implicit none
contains
  function scaled(n, x) result(r)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), allocatable :: r(:)
    r = 2d0 * x
  end function scaled
end module m

subroutine total(n, x, t)
  use m
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: t
  t = 0
  do while (sum(scaled(n, x)) > t)
    t = t + 1
  end do
end subroutine total
