! adgen-test
! head: options_changed(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
!
! An option string passed to a procedure that reads it (SELECT CASE), then given
! another value before the next call: the backward sweep runs each call again (joint
! mode) and must pass it the option that call saw, kept before it was overwritten.
module option_tools
  implicit none
contains
  subroutine apply_limiter(kind, u, r)
    character(len=*), intent(in) :: kind
    real(8), intent(in) :: u
    real(8), intent(inout) :: r
    select case (kind)
    case ('minmod')
      r = r + min(u, 1d0) * u
    case ('superbee_x')
      r = r + sin(u) * r
    case default
      r = r * u
    end select
  end subroutine apply_limiter
end module option_tools
subroutine options_changed(n, x, y)
  use option_tools
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  character(len=12) :: label
  y = x(1)
  label = 'minmod'
  call apply_limiter(label, x(2), y)
  label = 'superbee_x'
  call apply_limiter(label, x(2), y)
  label = 'other'
  call apply_limiter(label, x(3), y)
end subroutine options_changed
