! fuzz seed 7700140, minimized: gcc -O3 (loop splitting) warned, without a location, that a
! backward loop "invokes undefined behavior": the adjoint re-read the dummy `*n` after each
! pop from the value stack. Integer dummies nothing writes are now read once, on entry.
! adgen-test
! head: fz_head(y s fz_head)/(x xl a)
! arg n: integer = 5
! arg xl: real(8)[0:n-1] = uniform(-1, 1)
! arg s: real(8)
! arg x: real(8)[n] = uniform(0, 1)
! arg a: real(8) = uniform(-1, 1)
! arg y: real(8)[n]
! tol: 1e-5
! seed: 141
!
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
end module fz_mod

function fz_head(n, xl, s, x, a, y) result(r)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: xl(0:n-1)
  real(8), intent(out) :: s
  real(8), intent(in) :: x(n)
  real(8), intent(in) :: a
  real(8), intent(out) :: y(n)
  real(8) :: r
  integer :: i
  integer :: j
  real(8) :: w1(2:n - 1)
  real(8) :: sink
  sink = 0.0d0
  y = tanh(xl(0:n - 1))
  s = xl(n - 2)
  if (max(fz_coef(1), fz_state) < 0.17d0) then
  else
    y(1:n - 1) = 0.2d0 * (s * fz_state + tanh(y(2:n)))
  end if
  outer1: do i = 1, n - 1, 2
    y(1:n - 2) = sin(3.0d0) * y(1:n - 2)
    do j = 1, n - 1
      w1 = 1.5d0 * xl(0:n - 3) + 1.5d0 * x(1:n - 2)
      sink = 0.5d0 * sink + 0.5d0 * tanh(0.1d0 * sum(w1 ** 2))
    end do
  end do outer1
  r = 0.8d0 * (0.5d0 * ((1.5d0 + tanh(sin(xl(n - 2)))) ** (1.0d0 + 0.5d0 * tanh(exp(xl(n - 1)))) + &
      & s) + 0.5d0 * tanh(sink))
end function fz_head
