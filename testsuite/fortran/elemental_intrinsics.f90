! adgen-test
! head: activation(y z)/(x p)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.1, 2)
! arg p: real(8)[2] = uniform(0.5, 1.5)
! arg y: real(8)[n]
! arg z: real(8)[n]
!
! Elemental use of intrinsics on whole arrays and sections: exp, log, sqrt, tanh,
! sin, abs, max, min applied to arrays, mixed with scalars.
subroutine activation(n, x, p, y, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), p(2)
  real(8), intent(out) :: y(n), z(n)
  y = tanh(p(1) * x) + log(1.0d0 + exp(-x)) * p(2)
  z = sqrt(x) * sin(x) + max(x, 0.5d0) * min(x, 1.5d0)
  z(2:n) = z(2:n) + abs(x(1:n-1) - p(1))
end subroutine activation
