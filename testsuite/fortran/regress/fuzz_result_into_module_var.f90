! regress: a module variable set from the result of a function that reads it (st = f2(x)): the adjoint of the function's read of st was lost (the caller zeroed st's adjoint after the call); minimized by hand from fuzz seed 120266
! adgen-test
! head: h(y)/(x)
! arg x: real(8)[3] = uniform(-1, 1)
! arg y: real(8)
module mm
  implicit none
  real(8) :: st
contains
  function f2(u) result(r)
    real(8), intent(in) :: u(3)
    real(8) :: r
    r = 0.5d0 * (1.5d0 + tanh(st + u(3))) + u(2)
  end function f2
end module mm
subroutine h(x, y)
  use mm
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  integer :: i
  st = 0.0d0
  y = 0.0d0
  do i = 1, 3
    st = f2(x)
    y = y + f2(0.5d0 * x) ** 2
  end do
end subroutine h
