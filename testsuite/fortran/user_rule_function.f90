! adgen-test
! head: fm(y)/(x s)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.2, 0.8)
! arg s: real(8) = 0.7
! arg y: real(8)
! adgen-flags: --rules rules/function_norm.rules
!
! A rule for a Fortran function: its result seed is passed to wnorm_b by reference, and
! the lengths come from the declarations (u(n), a scalar s) (written for this project).
real(8) function wnorm(n, u, s)
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), s
  wnorm = s * sqrt(sum(u * u))
end function wnorm
real(8) function wnorm_d(n, u, ud, s, sd, wnorm)
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), ud(n), s, sd
  real(8), intent(out) :: wnorm
  real(8) :: r
  r = sqrt(sum(u * u))
  wnorm = s * r
  wnorm_d = sd * r + s * sum(u * ud) / r
end function wnorm_d
subroutine wnorm_b(n, u, ub, s, sb, wnormb)
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), s, wnormb
  real(8), intent(inout) :: ub(n), sb
  real(8) :: r
  r = sqrt(sum(u * u))
  sb = sb + wnormb * r
  ub = ub + wnormb * s * u / r
end subroutine wnorm_b
subroutine fm(n, x, s, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), s
  real(8), intent(out) :: y
  real(8) :: wnorm
  external wnorm
  y = sin(wnorm(n, x, s)) + wnorm(n, x * x, 0.5d0 * s)
end subroutine fm
