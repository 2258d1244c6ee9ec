! adgen-test
! head: run(y)/(y)
! expect-error: needs a procedure of the input there
! expect-error-line: 25
!
! Must be refused: what is passed to a dummy procedure is not a procedure of the input
! (here an intrinsic, which adgen cannot copy the callee for).
module apply_mod
  implicit none
contains
  subroutine apply(f, y)
    interface
      function f(x)
        real(8), intent(in) :: x
        real(8) :: f
      end function f
    end interface
    real(8), intent(inout) :: y
    y = f(y) * y
  end subroutine apply

  subroutine run(y)
    real(8), intent(inout) :: y
    intrinsic dsin
    call apply(dsin, y)
  end subroutine run
end module apply_mod
