! adgen-test
! head: run(t)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg t: real(8)
!
! A time loop checkpointed by BINOMIAL-CKP whose step is a function with an ALLOCATABLE
! result: each call's result is allocated and freed within the statement, so the states
! kept between steps hold none of it, and the steps run again from them allocate it anew.
module m
  implicit none
contains
  function stepped(n, u) result(r)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    real(8), allocatable :: r(:)
    allocate(r(n))
    r = u + 0.1d0 * sin(u)
  end function stepped
end module m

subroutine run(n, x, t)
  use m
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: t
  real(8) :: u(n)
  integer :: k
  u = x
  !$AD BINOMIAL-CKP 20 3 1
  do k = 1, 20
    u = stepped(n, u)
  end do
  t = sum(u**2)
end subroutine run
