! adgen-test
! head: pick(e)/(x)
! arg n: integer = 9
! arg x: real(8)[n] = uniform(-1, 1)
! arg e: real(8)
!
! maxloc and minloc with DIM=1: the peak and the trough of a signal, of a section and of an
! array whose bounds do not start at 1 (the position counts from 1 all the same), and in an
! array assignment, where the position is the same for every element; among equal
! elements the first one.
subroutine pick(n, x, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: e
  real(8) :: w(0:n-1), v(n)
  integer :: i, j, k, t, m(n)
  w = x * x - 0.3d0 * x
  i = maxloc(x, 1)
  j = minloc(w, dim=1)
  k = maxloc(x(3:n-1), dim=1) + 2
  v = x * x(minloc(x, 1))
  m = floor(2d0 * x)
  t = maxloc(m, 1) + 10 * minloc(floor(2d0 * x), 1)   ! ties: the first
  e = x(i) ** 2 + sin(w(j - 1)) + 3d0 * x(k) * x(1) + sum(v) + minloc(x(2:4), 1) * x(2) + &
      x(mod(t, 10)) * x(t / 10)
  do i = 1, 2
    e = e + x(maxloc(x(i:n), 1) + i - 1)
  end do
end subroutine pick
