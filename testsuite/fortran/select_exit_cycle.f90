! adgen-test
! head: sel(y)/(x)
! arg n: integer = 9
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)[2]
!
! EXIT and CYCLE inside the cases of a SELECT CASE leave or continue the DO loop around it;
! a case with several values, a default case reading sections.
subroutine sel(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(2)
  real(8) :: s, t
  integer :: i
  s = 0d0
  t = 1d0
  do i = 1, n
    select case (mod(i, 4))
    case (0)
      if (x(i) > 1.2d0) cycle
      s = s + x(i)**2
    case (1, 2)
      t = t * (1d0 + 0.1d0 * x(i))
      if (t > 1.5d0) exit
    case default
      s = s + dot_product(x(1:2), x(i-1:i)) + sum(x(1:i)) * 0.1d0 + maxval(x(1:3))
    end select
    s = s + 0.01d0 * t
  end do
  y(1) = s
  y(2) = t
end subroutine sel
