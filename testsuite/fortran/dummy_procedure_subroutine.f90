! adgen-test
! head: run(y)/(y)
! arg y: real(8) = 0.7
!
! A subroutine passed as an argument: a second-order Runge-Kutta step takes the
! right-hand side as a dummy procedure declared by an interface block and calls it with
! CALL; the module procedure passed is called directly by the step's copy.
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
