! adgen-test
! head: mc(y)/(x)
! arg x: real(8)[3] = uniform(-1, 1)
! arg y: real(8)
!
! CHARACTER module variables, one with an initial value (in the compiled module's
! object, which the output refers to), set by a procedure of the module from its
! assumed-length dummy and compared in the head; the head leaves them as it found them.
module settings
  implicit none
  character(len=12) :: method = 'implicit'
  character(len=12) :: last
contains
  subroutine choose(name)
    character(len=*), intent(in) :: name
    last = method
    method = name
  end subroutine choose
end module settings
subroutine mc(x, y)
  use settings
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  y = sum(x**2)
  if (method == 'implicit') y = y * 2d0
  call choose('explicit')
  if (trim(method) == 'explicit' .and. last /= method) y = y + sin(x(1))
  call choose('implicit')
end subroutine mc
