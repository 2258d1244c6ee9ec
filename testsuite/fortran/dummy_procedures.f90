! adgen-test
! head: model(out)/(p y0)
! arg n: integer = 20
! arg p: real(8)[4] = uniform(0.5, 1.5)
! arg y0: real(8)[2] = uniform(0.2, 0.8)
! arg out: real(8)[2]
!
! Dummy procedures: a Runge-Kutta integrator takes the right-hand side it steps as a
! procedure argument (an abstract interface and PROCEDURE(), an interface block, an
! EXTERNAL function and an EXTERNAL subroutine), passes it on to its step, and is called
! with two module functions. Each call that passes a procedure gets a copy of the callee
! calling it directly.
module rhs_lib
  implicit none
  abstract interface
    function rhs(t, y, p) result(dy)
      real(8), intent(in) :: t, y, p(4)
      real(8) :: dy
    end function rhs
  end interface
contains
  function decay(t, y, p) result(dy)
    real(8), intent(in) :: t, y, p(4)
    real(8) :: dy
    dy = -p(1) * y + p(2) * sin(t)
  end function decay

  function logistic(t, y, p) result(dy)
    real(8), intent(in) :: t, y, p(4)
    real(8) :: dy
    dy = p(3) * y * (1d0 - y / p(4))
  end function logistic
end module rhs_lib

module integrators
  use rhs_lib
  implicit none
contains
  ! one classical Runge-Kutta step of y' = f(t, y)
  subroutine rk4_step(f, t, y, h, p)
    procedure(rhs) :: f
    real(8), intent(in) :: t, h, p(4)
    real(8), intent(inout) :: y
    real(8) :: k1, k2, k3, k4
    k1 = f(t, y, p)
    k2 = f(t + 0.5d0 * h, y + 0.5d0 * h * k1, p)
    k3 = f(t + 0.5d0 * h, y + 0.5d0 * h * k2, p)
    k4 = f(t + h, y + h * k3, p)
    y = y + h / 6d0 * (k1 + 2d0 * k2 + 2d0 * k3 + k4)
  end subroutine rk4_step

  function integrate(f, y0, n, h, p) result(y)
    interface
      function f(t, y, p)
        real(8), intent(in) :: t, y, p(4)
        real(8) :: f
      end function f
    end interface
    real(8), intent(in) :: y0, h, p(4)
    integer, intent(in) :: n
    real(8) :: y, t
    integer :: i
    y = y0
    t = 0d0
    do i = 1, n
      call rk4_step(f, t, y, h, p)
      t = t + h
    end do
  end function integrate

  ! a subroutine and a function passed with implicit interfaces
  subroutine apply_twice(s, g, x)
    external s
    real(8), external :: g
    real(8), intent(inout) :: x
    call s(x)
    call s(x)
    x = x + g(x)
  end subroutine apply_twice
end module integrators

subroutine squash(x)
  real(8), intent(inout) :: x
  x = x / (1d0 + x * x)
end subroutine squash

function cube(x)
  real(8), intent(in) :: x
  real(8) :: cube
  cube = x ** 3
end function cube

subroutine model(n, p, y0, out)
  use rhs_lib
  use integrators
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: p(4), y0(2)
  real(8), intent(out) :: out(2)
  external squash
  real(8), external :: cube
  real(8) :: z
  z = p(1)
  call apply_twice(squash, cube, z)
  out(1) = integrate(decay, y0(1), n, 0.05d0, p) + z
  out(2) = integrate(logistic, y0(2), n, 0.05d0, p) + integrate(decay, y0(2), n, 0.1d0, p)
end subroutine model
