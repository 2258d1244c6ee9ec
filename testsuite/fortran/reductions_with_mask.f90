! adgen-test
! head: masked(e)/(x c)
! arg n: integer = 9
! arg x: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = 0.2
! arg e: real(8)
!
! Reductions with MASK=: sum, product, maxval and minval of the elements where a condition
! holds, of whole arrays, sections and expressions, also inside an array assignment; of no
! element, -huge and huge.
subroutine masked(n, x, c, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), c
  real(8), intent(out) :: e
  real(8) :: w(0:n-1), v(n)
  w = x * x - c * x
  e = sum(x, mask=x > c) + 2d0 * sum(w(1:n-2) * x(2:n-1), mask=w(0:n-3) < 0.3d0)
  e = e + product(1d0 + 0.5d0 * x, mask=abs(x) < 0.7d0) + maxval(w, mask=x < 0d0)
  e = e + minval(x(2:n) * c, mask=w(1:n-1) > 0d0 .and. x(1:n-1) > -0.9d0)
  v = x * sum(w, mask=w > c)
  e = e + sum(v * v) + sum(x, dim=1)
  ! no element selected: -huge and huge, as gfortran gives
  e = e + max(maxval(x, mask=x > 5d0), -2d0) * x(1) + min(minval(x, mask=x > 5d0), 3d0) * x(2)
  e = e + 1d-9 * dble(huge(n)) * x(3) + 1d-300 * huge(c) * x(4)
end subroutine masked
