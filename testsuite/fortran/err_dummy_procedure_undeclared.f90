! adgen-test
! head: run(y)/(y)
! expect-error: declare the dummy procedure
! expect-error-line: 25
!
! Must be refused with a message that says what to write: a dummy called as a procedure
! but declared as a variable (no interface block, EXTERNAL or PROCEDURE()).
module apply_mod
  implicit none
contains
  subroutine twice(f, y)
    real(8) :: f
    real(8), intent(inout) :: y
    y = f(y) + f(2d0 * y)
  end subroutine twice

  function sq(x)
    real(8), intent(in) :: x
    real(8) :: sq
    sq = x * x
  end function sq

  subroutine run(y)
    real(8), intent(inout) :: y
    call twice(sq, y)
  end subroutine run
end module apply_mod
