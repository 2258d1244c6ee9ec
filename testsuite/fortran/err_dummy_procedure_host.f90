! adgen-test
! head: run(y)/(y)
! expect-error: of the host is called in an internal procedure
! expect-error-line: 17
!
! Must be refused with the reason: an internal procedure calling its host's dummy
! procedure (the copy made for the procedure passed would not reach it).
module m4
  implicit none
contains
  subroutine apply(f, y)
    real(8), external :: f
    real(8), intent(inout) :: y
    call inner()
  contains
    subroutine inner()
      y = f(y)
    end subroutine inner
  end subroutine apply
  function sq(x)
    real(8), intent(in) :: x
    real(8) :: sq
    sq = x * x
  end function sq
  subroutine run(y)
    real(8), intent(inout) :: y
    call apply(sq, y)
  end subroutine run
end module m4
