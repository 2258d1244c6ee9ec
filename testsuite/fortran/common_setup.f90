! adgen-test
! head: response(r)/(u)
! arg n: integer = 6
! arg u: real(8)[n] = uniform(-1, 1)
! arg r: real(8)[n]
! setup: set_coefficients
!
! COMMON blocks in free form: /coef/ is set by a setup routine (called by the
! drivers before every evaluation, so the derivative reads the values the
! gfortran-compiled primal left in gfortran's coef_), /work/ is written by the head
! and read by a helper.
subroutine set_coefficients()
  implicit none
  real(8) :: alpha, beta, gamma
  integer :: nterm
  common /coef/ alpha, beta, gamma, nterm
  alpha = 0.8d0
  beta = -0.35d0
  gamma = 1.7d0
  nterm = 3
end subroutine set_coefficients

subroutine response(n, u, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: r(n)
  real(8) :: alpha, beta, gamma
  integer :: nterm
  common /coef/ alpha, beta, gamma, nterm
  real(8) :: tmp(6), total
  common /work/ tmp, total
  integer :: i
  total = 0.0d0
  do i = 1, n
    tmp(i) = alpha * u(i) + beta * u(i)**nterm
    total = total + tmp(i)
  end do
  call finish(n, r)
end subroutine response

subroutine finish(n, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(out) :: r(n)
  real(8) :: alpha, beta, gamma
  integer :: nterm
  common /coef/ alpha, beta, gamma, nterm
  real(8) :: tmp(6), total
  common /work/ tmp, total
  r = tmp(1:n) + gamma * total / n
end subroutine finish
