! adgen-test
! head: spring(e)/(x)
! arg n: integer = 5
! arg x: real[n] = uniform(0.5, 1.5)
! arg rk: real = 2.5
! arg e: real[1]
! tol: 2e-3
! dot_tol: 1e-5
!
! No `implicit none`: implicit typing, names starting with i-n are integers, the
! others default real (single precision: float). The energy of a chain of springs.
subroutine spring(n, x, rk, e)
  dimension x(n), e(1)
  s = 0.0
  do i = 1, n - 1
    d = x(i+1) - x(i)
    s = s + 0.5 * rk * (d - 1.0)**2
  end do
  k = n
  e(1) = s + 0.1 * x(k)**2
end subroutine spring
