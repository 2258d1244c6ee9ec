! adgen-test
! head: entry_bounds(y r)/(x a)
! arg n: integer = 4
! arg m: integer = 3
! arg nmax: integer = 6
! arg x: real(8)[n, m]
! arg a: real(8)[nmax]
! arg y: real(8)[n, m]
! arg r: real(8)
!
! The bounds of explicit-shape arrays are evaluated on entry to the procedure: the
! dummies x(n, m) and y(n, m) and the automatic array w(n) keep the shape they have on
! entry although the body changes n and m (whole-array operations, element indexing,
! size, sections); a temporary for a section whose bound grows after entry is sized by
! the whole array.
subroutine entry_bounds(n, m, nmax, x, a, y, r)
  implicit none
  integer, intent(inout) :: n, m
  integer, intent(in) :: nmax
  real(8), intent(in) :: x(n, m), a(nmax)
  real(8), intent(out) :: y(n, m), r
  real(8) :: w(n), t(nmax)
  integer :: i, j
  n = n - 1
  y = 2.0d0 * x
  do j = 1, size(y, 2)
    do i = 1, size(x, 1)
      y(i, j) = y(i, j) + x(i, j) * a(i + j - 1)
    end do
  end do
  w = x(:, 2) * a(1:size(w))
  r = sum(w * y(:, m)) + size(x) * 0.01d0
  t = a
  m = m + 2
  t(2:m) = t(1:m-1) * a(2:m)
  r = r + sum(t) + n * y(n, 1)
end subroutine entry_bounds
