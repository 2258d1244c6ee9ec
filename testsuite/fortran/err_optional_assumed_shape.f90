! adgen-test
! head: f(y)/(x)
! expect-error: OPTIONAL assumed-shape dummy argument 'w' is not supported
! expect-error-line: 14
!
! An OPTIONAL assumed-shape dummy (gfortran passes an array descriptor) is refused;
! explicit-shape and assumed-size optional arrays are supported.
module m
contains
  subroutine f(x, y, w)
    implicit none
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    real(8), intent(in), optional :: w(:)
    y = x
    if (present(w)) y = y + w(1) * x
  end subroutine f
end module m
