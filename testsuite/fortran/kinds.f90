! adgen-test
! head: mixed_kinds(out)/(a b c d)
! arg m: integer(8) = 3
! arg flag: logical = .true.
! arg a: real(8)[m] = uniform(0.5, 1.0)
! arg b: real(8) = 0.8
! arg c: real(8)[m] = uniform(-1, 1)
! arg d: real(8) = 1.3
! arg out: real(8)[m]
!
! Kinds: real(8), real*8, double precision, kind(1.d0), selected_real_kind(15),
! real(kind=8), integer(8), logical arguments, a real(4) local (passive) and
! conversions real(.., 4), real(.., dp), dble.
subroutine mixed_kinds(m, flag, a, b, c, d, out)
  implicit none
  integer, parameter :: dp = kind(1.d0)
  integer, parameter :: wp = selected_real_kind(15)
  integer(8), intent(in) :: m
  logical, intent(in) :: flag
  real(dp), intent(in) :: a(m)
  real*8, intent(in) :: b
  double precision, intent(in) :: c(m)
  real(wp), intent(in) :: d
  real(kind=8), intent(out) :: out(m)
  real(4) :: s4
  integer(8) :: i
  do i = 1, m
    s4 = real(i, 4) * 0.5
    if (flag) then
      out(i) = dble(s4) * a(i) * b + c(i) * d + real(i, dp) * a(i)**2
    else
      out(i) = c(i)
    end if
  end do
end subroutine mixed_kinds
