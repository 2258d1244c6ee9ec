! adgen-test
! head: host_strings(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
!
! Internal procedures that use CHARACTER variables of their host (host association): one
! compares the host's option string, another sets it and appends to the host's log, as
! solver drivers choose a scheme by name. The option changes between the calls, so the
! backward sweep must run each call again with the string that call saw.
subroutine host_strings(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  character(len=8) :: scheme
  character(len=12) :: log_line
  integer :: i
  scheme = 'upwind'
  log_line = ''
  y = 0d0
  do i = 1, n
    y = y + flux(x(i))
    if (i == 2) call choose('central')
  end do
contains
  real(8) function flux(u)
    real(8), intent(in) :: u
    if (scheme == 'upwind') then
      flux = u * u
    else if (trim(scheme) == 'central') then
      flux = sin(u) * u
    else
      flux = u
    end if
  end function

  subroutine choose(name)
    character(len=*), intent(in) :: name
    scheme = name
    log_line = trim(log_line) // name(1:1)
  end subroutine
end subroutine
