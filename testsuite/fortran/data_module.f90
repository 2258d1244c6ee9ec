! adgen-test
! head: use_coef(y)/(x)
! arg x: real(8)[3] = uniform(-1, 1)
! arg y: real(8)
!
! DATA in a module (the compiled module's object holds the values; the output refers to
! its variable) and in a procedure, for two SAVEd locals, one the procedure changes at
! each call (a call counter).
module coefs
  implicit none
  real(8) :: coef(3)
  data coef /1d0, -2d0, 0.5d0/
end module coefs
subroutine use_coef(x, y)
  use coefs
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  real(8) :: acc
  integer :: calls
  data acc /0.25d0/, calls /0/
  calls = calls + 1
  y = acc + sum(coef * x**2)
end subroutine use_coef
