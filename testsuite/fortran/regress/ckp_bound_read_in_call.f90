! adgen-test
! head: smooth(u r)/(u)
! arg n: integer = 9
! arg u: real(8)[n] = uniform(-1, 1)
! arg r: real(8)
!
! regress: a checkpointed DO loop bounded by the dummy n, which the procedure also reads as
! a value inside a call's argument (tanh(u(n - 1))) and passes on to a function that only
! reads it (edge(n, u)): either counted as n changing, so the loop was taken for not
! counted and the directive refused ("the loop's bounds must not change inside it"); loops
! bounded by such an n also stored their trip counts instead of counting again.
module edges
  implicit none
contains
  function edge(n, u) result(e)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    real(8) :: e
    e = u(1) * u(n)
  end function edge
end module edges

subroutine smooth(n, u, r)
  use edges
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: r
  integer :: i
  r = tanh(u(n - 1)) + edge(n, u)
  !$AD BINOMIAL-CKP n 2 1
  do i = 2, n - 1
    u(i) = 0.5d0 * u(i) + 0.25d0 * sin(u(i - 1) + u(i + 1))
  end do
  r = r + sum(u * u)
end subroutine smooth
