! adgen-test
! head: h(y)/(x)
! expect-error: returns an array and adgen has only its interface
! expect-error-line: 19
!
! Must be refused: a function that returns an array, known by its interface block only.
! Its value is an array descriptor adgen cannot receive (it used to be called as if it
! returned a scalar).
subroutine h(x, y)
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y(3)
  interface
    function ext(v) result(r)
      real(8), intent(in) :: v(3)
      real(8) :: r(3)
    end function ext
  end interface
  y = ext(x) * 2d0
end subroutine h
