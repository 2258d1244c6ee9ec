! adgen-test
! head: smooth(y)/(x)
! arg n: integer = 7
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
!
! ALLOCATE and DEALLOCATE with STAT=: the status is 0 when they succeed (checked, as a
! program would, before the arrays are used), and DEALLOCATE of an array that is not
! allocated sets it instead of stopping the program.
subroutine smooth(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8), allocatable :: w(:), v(:)
  integer :: ierr, i, unused
  allocate(w(0:n + 1), v(n), stat=ierr)
  if (ierr /= 0) then
    y = 0d0
    return
  end if
  w(0) = x(1)
  w(1:n) = x
  w(n + 1) = x(n)
  do i = 1, n
    v(i) = 0.25d0 * w(i - 1) + 0.5d0 * sin(w(i)) + 0.25d0 * w(i + 1) ** 2
  end do
  y = v * v
  deallocate(w, stat=ierr)
  if (ierr == 0) y(1) = y(1) + 1d0
  deallocate(w, stat=unused)
  if (unused /= 0) y(2) = 2d0 * y(2)
end subroutine smooth
