! adgen-test
! head: run(y)/(y)
! arg y: real(8) = 0.7
! expect-error: dummy procedure
!
! Must be refused: a dummy procedure argument (an integrator taking the right-hand side
! as an argument, with an interface block). The message named an unknown external
! function and asked for its source, which was in the input.
module integ
  implicit none
contains
  subroutine rk2(f, y, h)
    interface
      subroutine f(y, dy)
        real(8), intent(in) :: y
        real(8), intent(out) :: dy
      end subroutine f
    end interface
    real(8), intent(inout) :: y
    real(8), intent(in) :: h
    real(8) :: k1, k2
    call f(y, k1)
    call f(y + h * k1, k2)
    y = y + 0.5d0 * h * (k1 + k2)
  end subroutine rk2

  subroutine decay(y, dy)
    real(8), intent(in) :: y
    real(8), intent(out) :: dy
    dy = -y * y
  end subroutine decay

  subroutine run(y)
    real(8), intent(inout) :: y
    call rk2(decay, y, 0.1d0)
  end subroutine run
end module integ
