! adgen-test
! head: caller(y)/(x)
! expect-error: optional
! expect-error-line: 14
!
! OPTIONAL dummy arguments are not supported (a call may leave them out, and present()
! tells at run time): adgen must refuse them at their declaration.
module opt_mod
  implicit none
contains
  subroutine scale(x, y, factor)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    real(8), intent(in), optional :: factor
    if (present(factor)) then
      y = factor * x
    else
      y = 2.0d0 * x
    end if
  end subroutine scale
end module opt_mod

subroutine caller(x, y)
  use opt_mod
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  call scale(x, y)
end subroutine caller
