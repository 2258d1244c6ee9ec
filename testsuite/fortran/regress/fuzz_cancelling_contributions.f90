! adgen-test
! head: fz_head(y)/(x a)
! arg n: integer = 7
! arg a: real(8) = uniform(-1, 1)
! arg y: real(8)[n]
! arg x: real(8)[n] = uniform(-1, 1)
! tol: 1e-5
! seed: 837
!
! Fuzz seed 11313836, reduced: y = x - x carries a zero derivative into a chain of sums
! (y(kw2) = sum(y), 245 times), whose adjoint grows to about 1e73 before it reaches
! `y = x - x`. The two contributions of that statement to xb cancel: written one after
! the other (xb = xb + yb; xb = xb - yb) they wiped out the rest of xb; they are left out.
!
subroutine fz_head(n, a, y, x)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a
  real(8), intent(out) :: y(n)
  real(8), intent(in) :: x(n)
  integer :: j, kw2
  integer :: i
  real(8) :: sink
  sink = 0
  y = x(1:n) - x(1:n)
  do i = 2, n - 1
    do j = 1, n
      kw2 = 1
      do while (kw2 <= n)
        y(kw2) = sum(y)
        if (x(n + 1 - i) < -0.23d0) goto 900
        kw2 = kw2 + 1
      end do
      900 continue
      sink = 0.5d0 * sink + 0.5d0 * tanh(0.1d0 * sum(x ** 2))
    end do
  end do
  y(2) = y(2) + sink
end subroutine fz_head
