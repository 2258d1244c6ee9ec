! adgen-test
! head: interp_sum(s)/(ys x)
! arg n: integer = 6
! arg xs: real(8)[n] = [0.0d0, 0.5d0, 1.1d0, 1.6d0, 2.4d0, 3.0d0]
! arg ys: real(8)[n] = uniform(-1, 1)
! arg m: integer = 6
! arg x: real(8)[m] = [-0.3d0, 0.2d0, 1.3d0, 2.05d0, 2.7d0, 3.4d0]
! arg s: real(8)
!
! Forward GOTOs: a table search that leaves its DO loop with `goto 20` as soon as the
! interval is found, a `goto 30` from inside an IF block to the end of the enclosing loop
! body, a `goto 30` that skips the interpolation, a GOTO to the terminal CONTINUE of a
! labelled DO (the next iteration), and a GOTO to the labelled END statement (return).
subroutine interp_sum(n, xs, ys, m, x, s)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: xs(n), ys(n), x(m)
  real(8), intent(out) :: s
  real(8) :: t, v, w
  integer :: i, j
  s = 0.0d0
  do j = 1, m
    t = x(j)
    if (t <= xs(1)) then
      v = ys(1) * (1.0d0 + t**2)
      goto 30
    end if
    do i = 1, n - 1
      if (t < xs(i + 1)) goto 20
    end do
    v = ys(n) * t
    goto 30
20  w = (t - xs(i)) / (xs(i + 1) - xs(i))
    v = (1.0d0 - w) * ys(i) + w * ys(i + 1)
30  s = s + v * t
  end do
  do 40 i = 1, n
    if (ys(i) < 0.0d0) goto 40
    s = s + 0.1d0 * ys(i)**2
40 continue
  if (abs(s) > 1.0d6) goto 99
  s = s + sin(s)
99 end subroutine interp_sum
