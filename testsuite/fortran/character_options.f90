! adgen-test
! head: run_scheme(f)/(u)
! arg n: integer = 5
! arg u: real(8)[n] = uniform(-1, 1)
! arg f: real(8)[n]
!
! CHARACTER strings as options, as physics codes pass them: literals and a parameter
! passed to assumed-length dummies (character(len=*)), compared with ==, /=, .eq. and
! after trim(), SELECT CASE on them (values, a list, a range), a local variable
! assigned a literal and another variable, len and len_trim. They carry no derivative;
! the comparisons pad the shorter string with blanks, as Fortran does.
module schemes
  implicit none
  character(len=*), parameter :: default_limiter = 'minmod'
contains
  subroutine flux(n, u, f, scheme, limiter)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    real(8), intent(inout) :: f(n)
    character(len=*), intent(in) :: scheme, limiter
    integer :: i
    do i = 1, n
      if (scheme == 'upwind') then
        f(i) = f(i) + u(i)**2
      else if (trim(scheme) .eq. 'central   ') then
        f(i) = f(i) + 0.5d0 * u(i)**2 * len_trim(scheme)
      else
        f(i) = f(i) + sin(u(i)) * len(scheme)
      end if
    end do
    select case (limiter)
    case ('minmod', 'superbee')
      f(1) = f(1) * u(2)
    case ('a':'l')
      f(n) = f(n) + cos(u(1))
    case default
      f(2) = f(2) - u(3)
    end select
    if (limiter /= default_limiter) f(3) = 2d0 * f(3)
  end subroutine flux
end module schemes

subroutine run_scheme(n, u, f)
  use schemes
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: f(n)
  character(len=10) :: name, other
  character(8) :: short
  f = 0d0
  name = 'upwind'
  call flux(n, u, f, name, default_limiter)
  call flux(n, u, f, 'central', 'abc')
  other = name
  short = 'none'
  call flux(n, u, f, trim(short), 'zeta')
  if (other == name .and. len_trim(other) == 6) f(n) = f(n) * u(1)
  call flux(n, u, f, other, 'superbee')
end subroutine run_scheme
