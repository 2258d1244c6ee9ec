! regress (a fuzz failure, fixed): a SELECT CASE whose selector calls intrinsics and that has only CASE DEFAULT; the selector's temporary is set and never read
! adgen-test
! head: fz_head(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
!
subroutine fz_head(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  y = x
  select case (int(2.0d0 + 2.0d0 * tanh(x(1))))
  case default
    y(n) = 2.0d0 * x(2)
  end select
end subroutine fz_head
