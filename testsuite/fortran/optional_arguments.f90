! adgen-test
! head: caller(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
! head: scale(y w)/(x y factor w)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8) = 0.3
! arg factor: real(8) = 1.7
! arg w: real(8)[n] = uniform(-1, 1)
!
! OPTIONAL dummy arguments: calls that leave them out (a null pointer, as gfortran passes),
! by position or by keyword, present() choosing the computation, an optional argument
! passed on to another optional one (present or not), a function with an optional
! argument, and a head whose optional arguments are all given. A call left without an
! optional array that the callee changes keeps no snapshot of it (joint mode).
module opt_mod
  implicit none
contains
  subroutine scale(n, x, y, factor, w)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(inout) :: y
    real(8), intent(in), optional :: factor
    real(8), intent(inout), optional :: w(n)
    integer :: i
    do i = 1, n
      if (present(factor)) then
        y = 0.9d0 * y + factor * x(i) ** 2
      else
        y = 0.9d0 * y + 2.0d0 * sin(x(i))
      end if
      if (present(w)) then
        w(i) = 0.5d0 * w(i) + 0.1d0 * sin(y)
        y = 0.9d0 * y + 0.1d0 * w(i)
      end if
    end do
  end subroutine scale

  real(8) function g(a, b)
    real(8), intent(in) :: a
    real(8), intent(in), optional :: b
    g = a * a
    if (present(b)) g = g + a * b
  end function g

  subroutine relay(n, x, y, w)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(inout) :: y
    optional :: w
    real(8), intent(inout) :: w(n)
    call scale(n, x, y, w=w)
  end subroutine relay
end module opt_mod

subroutine caller(n, x, y)
  use opt_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: w(n), f
  integer :: k
  w = x
  y = 0d0
  f = x(1) * 0.5d0
  do k = 1, 3
    call scale(n, x, y)
    call scale(n, x, y, f)
    call scale(n, x, y, w=w)
    call scale(n, x, y, factor=x(2), w=w)
    call relay(n, x, y)
    call relay(n, x, y, w)
    y = y + g(x(3)) + g(x(4), b=w(2)) + g(x(5), f)
  end do
end subroutine caller
