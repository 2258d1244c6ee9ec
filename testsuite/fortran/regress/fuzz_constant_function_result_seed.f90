! regress (a fuzz failure, fixed): the head is a function whose result does not depend on the independents (r = constant); fz_head_b leaves the result's seed fb unchanged instead of consuming it (zero on return)
! adgen-test
! head: fz_head(y fz_head)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
!
function fz_head(n, x, y) result(r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: r
  y = cos(x)
  r = 0.125d0
end function fz_head
