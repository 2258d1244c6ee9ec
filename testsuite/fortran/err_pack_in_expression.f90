! adgen-test
! head: f(y)/(x)
! expect-error: pack is supported as the whole right-hand side of an assignment
! expect-error-line: 12
!
! pack inside an expression is refused (its length is known only once the mask is counted).
subroutine f(x, y)
  implicit none
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y
  y = 0.0d0
  y = sum(pack(x, x > 0.5d0) ** 2)
end subroutine f
