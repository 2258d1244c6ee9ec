! adgen-test
! head: shift_mix(a)/(b c)
! arg n: integer = 7
! arg a: real(8)[n]
! arg b: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = 0.6
!
! Array syntax: sections (a(2:n) = b(1:n-1) * c), whole-array assignment and
! expressions, a section with a stride, array constructors (/ /) and [ ], and an
! implied-do constructor.
subroutine shift_mix(n, a, b, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(out) :: a(n)
  real(8), intent(in) :: b(n), c
  real(8) :: t(n), coef(3), ramp(n)
  integer :: i
  coef = (/ 0.25d0, 0.5d0, 0.25d0 /)
  ramp = [(dble(i) / n, i = 1, n)]
  t = b * c + ramp
  a(1) = t(1)
  a(2:n) = b(1:n-1) * c
  a(2:n-1) = a(2:n-1) + coef(1) * t(1:n-2) + coef(2) * t(2:n-1) + coef(3) * t(3:n)
  a(1:n:2) = a(1:n:2) * 2.0d0
  a = a + t**2
end subroutine shift_mix
