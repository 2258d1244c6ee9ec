! adgen-test
! head: run(e)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg e: real(8)
!
! A time loop under BINOMIAL-CKP whose steps call a type-bound procedure of the state
! (split by NOCHECKPOINT) and read a type-bound function; a BLOCK in the loop declares a
! structure whose default values it gets at each step; the state is then rebuilt by a
! structure constructor. The kept states hold the structures as they are.
module stepper
  implicit none
  type :: state_t
    real(8) :: u(6) = 0d0
    real(8) :: dt = 0.05d0
    integer :: calls = 0
  contains
    procedure :: step
    procedure :: norm2sq
  end type state_t
contains
  subroutine step(self, f)
    class(state_t), intent(inout) :: self
    real(8), intent(in) :: f
    integer :: i
    do i = 2, 6
      self%u(i) = self%u(i) + self%dt * (sin(self%u(i - 1)) - self%u(i) + f)
    end do
    self%calls = self%calls + 1
  end subroutine step

  real(8) function norm2sq(self)
    class(state_t), intent(in) :: self
    norm2sq = sum(self%u**2)
  end function norm2sq

  subroutine run(n, x, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: e
    type(state_t) :: s
    integer :: k
    s%u = x
    e = 0d0
    !$AD BINOMIAL-CKP 40 5 1
    do k = 1, 40
      block
        type(state_t) :: scratch
        scratch%u(1) = s%u(1)
        !$AD NOCHECKPOINT
        call s%step(0.1d0 * scratch%u(1) + scratch%dt)
      end block
      e = e + 0.01d0 * s%norm2sq()
    end do
    s = state_t(s%u, 0.1d0, s%calls)
    call s%step(x(1))
    e = e + s%norm2sq()
  end subroutine run
end module stepper
