! adgen-test
! head: weighted_norm(s)/(x w)
! arg n: integer = 7
! arg x: real(8)[n] = uniform(-1, 1)
! arg w: real(8)[n] = uniform(0.5, 1.5)
! arg s: real(8)
! sizes: give
!
! Assumed-size dummies x(*), w(*) (F77 style): their length is not in the
! declaration, so the harness gives it (`sizes: give` passes --size x=n --size w=n).
subroutine weighted_norm(n, x, w, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(*), w(*)
  real(8), intent(out) :: s
  integer :: i
  s = 0.0d0
  do i = 1, n
    s = s + w(i) * x(i)**2
  end do
  s = sqrt(s)
end subroutine weighted_norm
