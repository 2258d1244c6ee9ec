! adgen-test
! head: caller(y)/(x)
! arg x: real(8) = 0.7
! arg y: real(8)
!
! An OPTIONAL dummy argument of a module procedure left out by the call: present() is
! false, the default factor applies.
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
