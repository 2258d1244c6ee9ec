! adgen-test
! head: mm(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.2, 0.8)
! arg y: real(8)
! adgen-flags: --rules rules/module_square.rules
!
! A rule for a module procedure: its derivative routines are external subroutines
! (written for this project).
module ops
contains
  subroutine sq(n, u, v)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    real(8), intent(out) :: v(n)
    v = u * u
  end subroutine sq
end module ops
subroutine sq_d(n, u, ud, v, vd)
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), ud(n)
  real(8), intent(out) :: v(n), vd(n)
  v = u * u
  vd = 2.0d0 * u * ud
end subroutine sq_d
subroutine sq_b(n, u, ub, v, vb)
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(inout) :: ub(n), v(n), vb(n)
  ub = ub + 2.0d0 * u * vb
  v = u * u
  vb = 0.0d0
end subroutine sq_b
subroutine mm(n, x, y)
  use ops
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: w(n)
  call sq(n, x, w)
  y = sum(sin(w))
end subroutine mm
