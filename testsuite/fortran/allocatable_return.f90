! adgen-test
! head: f(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! RETURN in a procedure with allocatable local arrays: each RETURN frees the arrays
! allocated so far, as the end of the procedure does. With n = 6 the RETURN taken is the one
! inside the loop, once w and v are both allocated (ADGEN_TEST_SANITIZE=1 reports a leak if
! they are not freed); the two before it are not taken.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), allocatable :: w(:), v(:)
  integer :: i
  y = 0d0
  if (n < 1) return
  allocate(w(n))
  w = x * x
  y = sum(w)
  if (y > 100d0) return
  allocate(v(n))
  do i = 1, n
    v(i) = sin(w(i)) * x(i)
    y = y + v(i)
    if (i == n / 2) return
  end do
  y = y * y
end subroutine f
