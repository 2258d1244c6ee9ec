! adgen-test
! head: trig_pair(c s)/(theta)
! head: trig_pair(c)/(theta r)
! arg n: integer = 4
! arg theta: real(8)[n] = uniform(-1.5, 1.5)
! arg r: real(8) = 2.0
! arg c: real(8)[n]
! arg s: real(8)[n]
! head: norm2w(norm2w)/(v)
! arg m: integer = 3
! arg v: real(8)[m] = uniform(0.5, 2)
!
! Several heads in one file: two heads of one subroutine (different independents
! and dependents, sharing the arg lines), and a function head with its own.
subroutine trig_pair(n, theta, r, c, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: theta(n), r
  real(8), intent(out) :: c(n), s(n)
  c = r * cos(theta)
  s = r * sin(theta) + c**2
end subroutine trig_pair

double precision function norm2w(m, v)
  implicit none
  integer, intent(in) :: m
  double precision, intent(in) :: v(m)
  integer :: i
  norm2w = 0.0d0
  do i = 1, m
    norm2w = norm2w + i * v(i)**2
  end do
  norm2w = sqrt(norm2w)
end function norm2w
