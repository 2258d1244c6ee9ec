! adgen-test
! head: model(y)/(x)
! adgen-flags: --joint square_it --joint cube
! arg n: integer = 3
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
!
! Procedures with BIND(C), with and without NAME=, called from a head in joint mode, so
! that the derivative code calls the program's own compiled procedures: under their
! binding names (`square_c`, `cube`), not gfortran's module symbols `__bound_MOD_...`,
! which a BIND(C) procedure does not have. Before, the output did not link.
module bound
  use iso_c_binding, only: c_double, c_int
  implicit none
contains
  subroutine square_it(x, y) bind(c, name="square_c")
    real(c_double), intent(in) :: x
    real(c_double), intent(out) :: y
    y = x * x
  end subroutine square_it

  function cube(x) result(c) bind(c)
    real(c_double), intent(in) :: x
    real(c_double) :: c
    c = x * x * x
  end function cube

  subroutine model(n, x, y)
    integer(c_int), intent(in) :: n
    real(c_double), intent(in) :: x(n)
    real(c_double), intent(out) :: y
    real(c_double) :: s
    integer :: i
    y = 0
    do i = 1, n
      call square_it(x(i), s)
      y = y + sin(s) + cube(x(i) - s)
    end do
  end subroutine model
end module bound
