! adgen-test
! head: f(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
!
! An allocatable array deallocated before the end of the procedure, in a loop's shadow:
! the end of the procedure frees it again only if allocated, and the freed pointer is set
! to null, so gcc's -Wuse-after-free (which cannot see the flag) has nothing to report
! (the derivative did not compile with -Werror).
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8), allocatable :: w(:)
  integer :: t
  allocate(w(n))
  w = x
  y = 0d0
  do t = 1, 3
    w = 0.5d0 * w + 0.25d0 * sin(x)
    y = y + w * x
  end do
  deallocate(w)
end subroutine f
