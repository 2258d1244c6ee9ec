! adgen: --stack-report says "unbounded: a loop whose trip count adgen cannot tell (t.f90:9:1)", pointing at u = x, once the DO loop calls a subroutine (g); with the update written inline the report is a formula (8 * *n * *nsteps + ...). The C equivalent gives a formula.
subroutine f(n, nsteps, x, u, y)
  implicit none
  integer, intent(in) :: n, nsteps
  double precision, intent(in) :: x(n)
  double precision, intent(inout) :: u(n)
  double precision, intent(out) :: y
  integer :: t
  u = x
  do t = 1, nsteps
    call g(n, u)
  end do
  y = sum(u)
end subroutine f
subroutine g(n, u)
  integer n
  double precision u(n)
  u = u * 0.5d0 + u * u
end subroutine g
