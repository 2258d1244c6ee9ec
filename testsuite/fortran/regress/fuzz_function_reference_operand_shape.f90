! adgen-test
! head: fz_head(y)/(x)
! arg n: integer = 6
! arg y: real(8)[n]
! arg x: real(8)[n] = uniform(0.2, 1.5)
! tol: 1e-5
! seed: 17
!
! Minimized from fuzz seed 9600016: `sum(fz_f3(n - 1, 0.1d0, x(2:n)) * x(4:6))`, a
! function reference that fparser reads as a structure constructor (it does not know
! fz_f3 is a function). Its argument x(2:n) was taken for an operand of the product, so
! the loop over the product's elements ran over n - 1 elements, not 3, and read x past
! its end (wrong values and derivatives).
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
contains

  function fz_f3(m, alpha, u) result(r)
    implicit none
    integer, intent(in) :: m
    real(8), intent(in) :: alpha
    real(8), intent(in) :: u(m)
    real(8) :: r
    real(8), save :: sink
    sink = 0.0d0
    r = 0.8d0 * (0.8d0 * (0.25d0 * (alpha * merge(u(2), fz_gain, u(3) <= 0.46d0)) + fz_gain) + &
        & 0.5d0 * tanh(sink))
  end function fz_f3
end module fz_mod

subroutine fz_head(n, y, x)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(out) :: y(n)
  real(8), intent(in) :: x(n)
  integer :: i
  integer :: kw1
  integer :: ii
  real(8) :: v1
  real(8) :: v2
  real(8) :: sink
  sink = 0.0d0
  y = x(1:n) - x(1:n)
  do i = 1, n
    kw1 = 1
    do while (kw1 <= n)
      do ii = n - 1, 1, -1
        v1 = 0.2d0 * sum(fz_f3(n - 1, 0.1d0, x(2:n)) * x(4:6))
        v2 = fz_coef(2)
        sink = 0.5d0 * sink + 0.5d0 * tanh(v1)
        sink = 0.5d0 * sink + 0.5d0 * tanh(v2)
      end do
      kw1 = kw1 + 2
    end do
  end do
  y(2) = 0.5d0 * y(2) + 0.5d0 * tanh(sink)
end subroutine fz_head
