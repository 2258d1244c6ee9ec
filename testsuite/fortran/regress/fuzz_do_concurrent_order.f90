! A DO CONCURRENT of two indices whose body carries a value from one iteration to the next
! (not conforming, but what gfortran runs in its order: the first index fastest): the
! derivative routines run the iterations in gfortran's order too (fuzz seed 10600096).
! adgen-test
! head: fz_head(y s t)/(x a t)
! arg n: integer = 4
! arg c: real(8)[n]
! arg y: real(8)[n]
! arg x: real(8)[n] = uniform(-2, 2)
! arg t: real(8) = uniform(-1, 1)
! arg a: real(8) = uniform(-1, 1)
! arg s: real(8)
! tol: 1e-5
! seed: 97
!
module fz_mod
  implicit none
  real(8), parameter :: fz_coef(3) = [0.25d0, 0.5d0, -0.5d0]
  real(8) :: fz_gain = 0.75d0
  real(8) :: fz_state
end module fz_mod

subroutine fz_head(n, c, y, x, t, a, s)
  use fz_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: c(n)
  real(8), intent(out) :: y(n)
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: t
  real(8), intent(in) :: a
  real(8), intent(out) :: s
  integer :: i
  integer :: j
  integer :: ii
  real(8) :: v2
  real(8) :: sink
  sink = 0.0d0
  y = x(:)
  s = abs(y(n))
  do i = n, 1, -1
    do concurrent (j = 1:n, ii = 2:n)
      v2 = x(mod(ii, n) + 1)
      sink = 0.5d0 * sink + 0.5d0 * tanh(v2)
    end do
  end do
  y(3) = 0.5d0 * y(3) + 0.5d0 * tanh(sink)
end subroutine fz_head
