! adgen-test
! head: twice(r)/(x)
! expect-error: a function that returns an array: not supported for a head
! expect-error-line: 8
!
! Must be refused: a head that returns an array (its callers receive an array
! descriptor, which the derivative routine would not give back).
function twice(n, x) result(r)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8) :: r(n)
  r = 2d0 * x
end function twice
