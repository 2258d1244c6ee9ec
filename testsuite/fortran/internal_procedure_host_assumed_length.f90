! adgen-test
! head: drive(y)/(x)
! arg x: real(8)[2] = uniform(0.5, 1.5)
! arg y: real(8)
!
! A host's CHARACTER dummy of assumed length (`character(len=*) :: mode`) used in its
! internal procedures: compared, a substring of it, its length; the internal procedures
! get its length as one more argument, also from one another.
module laws8
  implicit none
contains
  real(8) function response(mode, x)
    character(len=*), intent(in) :: mode
    real(8), intent(in) :: x
    response = law(x) + weight() * x
  contains
    real(8) function law(e)
      real(8), intent(in) :: e
      if (mode == 'cubic') then
        law = e + 0.3d0 * e**3
      else if (mode(1:3) == 'lin') then
        law = 2d0 * e
      else
        law = sin(e)
      end if
    end function law
    real(8) function weight()
      weight = dble(len(mode)) + 0.5d0 * law(x)
    end function weight
  end function response
end module laws8

subroutine drive(x, y)
  use laws8
  implicit none
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y
  character(len=8) :: name
  name = 'linear'
  y = response('cubic', x(1)) + response(name, x(2)) + response('soft', x(1) * x(2))
end subroutine drive
