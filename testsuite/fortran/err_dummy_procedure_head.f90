! adgen-test
! head: integrate(y)/(y)
! expect-error: takes a function as an argument
! expect-error-line: 8-9
!
! Must be refused: a head taking a dummy procedure (which procedure its callers pass is
! not known); the procedures that call it with a procedure of the input can be heads.
subroutine integrate(f, y)
  external f
  real(8), intent(inout) :: y
  call f(y)
  y = 2d0 * y
end subroutine integrate
