! adgen-test
! head: cond_calls(y s)/(x a)
! arg n: integer = 6
! arg x: real(8)[n] = [0.55d0, 0.62d0, 0.81d0, 1.05d0, 1.23d0, 1.41d0]
! arg a: real(8) = 0.7
! arg y: real(8)[n]
! arg s: real(8)
!
! Function calls whose actual arguments are constants or expressions (passed through
! temporaries set before the call) in the condition of an IF statement, of IF and ELSE
! IF, of DO WHILE (evaluated again after every iteration, also one ended by CYCLE), in
! a WHERE mask, a SELECT CASE selector and an array subscript; a reduction in a
! condition. With the temporaries left unset, every test takes the other way.
module cond_calls_mod
  implicit none
contains
  real(8) function scaled(t, c)
    real(8), intent(in) :: t, c
    scaled = c * t * t
  end function scaled

  integer function bucket(t)
    real(8), intent(in) :: t
    bucket = int(t * 3.0d0)
  end function bucket
end module cond_calls_mod

subroutine cond_calls(n, x, a, y, s)
  use cond_calls_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), a
  real(8), intent(out) :: y(n), s
  integer :: i, k
  y = x
  if (scaled(1.5d0, a) > 1.0d0) y(1) = y(1) * a
  do i = 1, n
    if (scaled(x(i), 1.0d0) < 0.5d0) then
      y(i) = y(i) * 2.0d0
    else if (scaled(2.0d0, a) > 2.5d0) then
      y(i) = y(i) + a * x(i)
    else
      y(i) = y(i) - a
    end if
  end do
  k = 0
  s = 0.0d0
  do while (scaled(dble(k), 0.5d0) < 4.0d0 .and. k < 10)
    k = k + 1
    s = s + a * k
    if (k == 1) cycle
    s = s * x(k)
  end do
  where (x > scaled(1.0d0, a))
    y = y * x
  end where
  select case (bucket(2.0d0 * a))
  case (4)
    y(n) = y(n) + a**2
  case default
    y(n) = y(n) - a
  end select
  y(bucket(0.4d0)) = y(bucket(0.4d0)) + a * s
  if (sum(x) > 3.0d0) y(2) = y(2) + sum(x) * a
end subroutine cond_calls
