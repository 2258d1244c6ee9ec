! adgen-test
! head: accumulate(x s t)/(x s w)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(-1, 1)
! arg s: real(8) = 0.4
! arg w: real(8) = 1.2
! arg t: real(8)
!
! Scalars are passed by reference in Fortran, so a scalar can be a dependent: s is
! intent(inout) (independent and dependent), t intent(out), x an in/out array.
subroutine accumulate(n, x, s, w, t)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), s
  real(8), intent(in) :: w
  real(8), intent(out) :: t
  integer :: i
  t = 0.0d0
  do i = 1, n
    s = s * 0.9d0 + w * x(i)
    x(i) = x(i) + s * x(i)
    t = t + x(i) * s
  end do
end subroutine accumulate
