! adgen-test
! head: scaled(y)/(x)
! expect-error: 'gain' has no type (IMPLICIT NONE)
! expect-error-line: 22
!
! A module's IMPLICIT NONE holds in its procedures (they inherit the module's implicit
! typing, as gfortran has it): a name a procedure never declares is an error, not a
! variable of the default REAL type (which would silently start at zero). A procedure's
! own IMPLICIT statement gives its letters a type again.
module scaling
  implicit none
  real(8), parameter :: c = 2d0
contains
  subroutine scaled(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    real(8) :: q
    call typed(x, q)
    y = x * q
    ! a misspelled name: gfortran refuses it ("has no IMPLICIT type"); so does adgen
    if (x > 1d30) then
      y = gain * y
    end if
  end subroutine

  subroutine typed(x, q)
    implicit real(8) (a-h, o-z)
    real(8), intent(in) :: x
    real(8), intent(out) :: q
    t = c * x
    q = t * t
  end subroutine
end module
