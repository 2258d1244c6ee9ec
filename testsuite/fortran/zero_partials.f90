! adgen-test
! head: limiter(y)/(u)
! arg n: integer = 6
! arg u: real(8)[n] = [0.1d0, 0.5d0, 0.7d0, 0.4d0, -0.3d0, 0.2d0]
! arg y: real(8)[n]
!
! Partials that vanish: the minmod limiter sign(1, a) * min(abs(a), abs(b)) (the partial
! of sign(1, a) in a is zero, so the value it multiplies was set and never read in the
! backward sweep: gcc -Werror refused the file), and negated products by a zero constant,
! -u * 0.0_dp and -u * zero (the tangent crashed with an internal error).
module limiters_m
  implicit none
  integer, parameter :: dp = kind(1.d0)
  real(dp), parameter :: zero = 0.0_dp
contains
  pure function minmod(a, b) result(r)
    real(dp), intent(in) :: a, b
    real(dp) :: r
    r = 0.5_dp * (sign(1.0_dp, a) + sign(1.0_dp, b)) * min(abs(a), abs(b))
  end function minmod
end module limiters_m

subroutine limiter(n, u, y)
  use limiters_m
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: u(n)
  real(dp), intent(out) :: y(n)
  integer :: i
  y(1) = -u(1) * 0.0_dp + u(1)
  y(n) = -u(n) * zero + 2.0_dp * u(n)
  do i = 2, n - 1
    y(i) = u(i) + minmod(u(i + 1) - u(i), u(i) - u(i - 1)) + sign(1.0d0, u(i)) * sin(u(i))
  end do
end subroutine limiter
