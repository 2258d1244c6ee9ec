! adgen-test
! head: f(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! GOTO to the labelled END statement in a procedure with allocatable local arrays: the
! jump does what END does, the arrays allocated so far are freed (ADGEN_TEST_SANITIZE=1
! reports a leak if they are not). With n = 6 the GOTO taken is the one inside the loop,
! once w and v are both allocated.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), allocatable :: w(:), v(:)
  integer :: i
  y = 0d0
  if (n < 1) goto 99
  allocate(w(n))
  w = x * x
  y = sum(w)
  if (y > 100d0) goto 99
  allocate(v(n))
  do i = 1, n
    v(i) = sin(w(i)) * x(i)
    y = y + v(i)
    if (i == n / 2) goto 99
  end do
  y = y * y
99 end subroutine f
