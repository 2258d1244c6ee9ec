! adgen-test
! head: s(y)/(x)
! arg x: real(8) = 0.7
! arg y: real(8)
!
! Arrays the output stores at file scope whose bounds are constant expressions rather than
! bare numbers: module variables u(-1:1), v(2, -n:n), t(n*2-1), m(max(n, 2)), q(n/2+1:n),
! p(2**n); PARAMETER arrays w(n+1) and z(-1:1); a SAVEd local s(-2:2) and a DATA-initialised
! local d(n*2). Each is an array of an integer constant length in C (C refuses a variable
! length at file scope).
module bounds_state
  implicit none
  integer, parameter :: n = 3
  real(8) :: u(-1:1), v(2, -n:n), t(n * 2 - 1), m(max(n, 2)), q(n / 2 + 1:n), p(2**n)
  real(8), parameter :: w(n + 1) = [1d0, 2d0, 3d0, 4d0]
  real(8), parameter :: z(-1:1) = [0.5d0, -1d0, 2d0]
end module bounds_state

subroutine fill(x)
  use bounds_state
  implicit none
  real(8), intent(in) :: x
  real(8), save :: s(-2:2)
  real(8) :: d(n * 2)
  data d /6 * 0.5d0/
  integer :: i
  do i = -2, 2
    s(i) = x * i + d(i + 3)
  end do
  do i = -1, 1
    u(i) = s(i) * z(i)
  end do
  v(1, :) = x
  v(2, :) = x * x
  t = [(x * i, i = 1, 5)]
  m = x + 1d0
  q = sin(x)
  p = w(2) * x
end subroutine fill

subroutine s(x, y)
  use bounds_state
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  call fill(x)
  y = sum(u**2) + sum(v(2, -n:n) * v(1, :)) + sum(t) * sum(m) + sum(q) * x + &
      sum(p) * u(1) + w(n + 1) * u(-1)
end subroutine s
