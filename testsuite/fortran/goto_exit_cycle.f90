! adgen-test
! head: damped_sums(r)/(x)
! arg n: integer = 5
! arg m: integer = 4
! arg x: real(8)[n, m] = [0.7d0, 0.9d0, 0.6d0, 0.85d0, 0.5d0, 0.6d0, 0.9d0, 0.25d0, 0.85d0, 0.7d0, 0.85d0, 0.5d0, 1.15d0, 0.6d0, 0.9d0, 0.7d0, 0.85d0, 0.9d0, 0.6d0, 0.5d0]
! arg r: real(8)[m]
!
! EXIT and CYCLE that leave more than the innermost loop: named `exit cols` and
! `cycle cols` from an inner DO loop, and EXIT / CYCLE of a DO loop from inside a loop
! formed by a backward GOTO (a halving iteration), which must leave the DO loop, not
! only the GOTO loop.
subroutine damped_sums(n, m, x, r)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: x(n, m)
  real(8), intent(out) :: r(m)
  real(8) :: h, acc
  integer :: i, j, k
  r = 0.0d0
  cols: do j = 1, m
    do i = 1, n
      if (x(i, j) > 1.1d0) exit cols
      if (x(i, j) < 0.3d0) cycle cols
      r(j) = r(j) + x(i, j)**2
    end do
    r(j) = r(j) * 2.0d0
  end do cols
  do j = 1, m
    acc = 0.0d0
    do i = 1, n
      h = x(i, j)
      k = 0
10    continue
      k = k + 1
      h = 0.5d0 * h
      if (k == 3 .and. i == 2) cycle
      if (k == 2 .and. i == 4 .and. j == 3) exit
      if (h > 0.1d0) goto 10
      acc = acc + h * x(i, j)
    end do
    r(j) = r(j) + acc
  end do
end subroutine damped_sums
