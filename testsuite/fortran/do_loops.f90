! adgen-test
! head: sweeps(y s)/(x)
! arg n: integer = 9
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)[n]
! arg s: real(8)
!
! DO loops with a step (2, 3 and negative -1, -2), DO WHILE, EXIT and CYCLE, and a
! loop whose count is zero.
subroutine sweeps(n, x, y, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n), s
  integer :: i, k
  real(8) :: acc
  y = x
  do i = 1, n, 2
    y(i) = y(i) * 1.5d0
  end do
  do i = n, 2, -1
    y(i) = y(i) + 0.5d0 * y(i-1)
  end do
  do i = n - 1, 1, -2
    y(i) = y(i) * y(i+1)
  end do
  do i = 3, n, 3
    y(i) = sin(y(i))
  end do
  do i = 5, 1
    y(i) = 0.0d0          ! never runs
  end do
  acc = 0.0d0
  k = 0
  do while (k < n .and. acc < 4.0d0)
    k = k + 1
    acc = acc + x(k)
  end do
  s = acc
  do i = 1, n
    if (mod(i, 3) == 0) cycle
    if (i > 7) exit
    s = s + y(i)**2
  end do
end subroutine sweeps
