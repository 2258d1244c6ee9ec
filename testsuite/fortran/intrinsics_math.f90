! adgen-test
! head: mathfun(y)/(x)
! arg x: real(8)[3] = uniform(0.2, 0.8)
! arg y: real(8)[14]
!
! The differentiable elementary intrinsics: sqrt exp log log10 sin cos tan asin acos
! atan atan2 sinh cosh tanh.
subroutine mathfun(x, y)
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y(14)
  y(1) = sqrt(x(1) + x(2))
  y(2) = exp(x(1) * x(3))
  y(3) = log(x(2) + 1.0d0)
  y(4) = log10(x(3) * 3.0d0)
  y(5) = sin(x(1)) * cos(x(2))
  y(6) = cos(x(3) * x(1))
  y(7) = tan(x(2))
  y(8) = asin(x(1))
  y(9) = acos(x(3) * 0.9d0)
  y(10) = atan(x(2) / x(1))
  y(11) = atan2(x(1) - 0.5d0, x(3))
  y(12) = sinh(x(1) + x(3))
  y(13) = cosh(x(2))
  y(14) = tanh(2.0d0 * x(3) - x(1))
end subroutine mathfun
