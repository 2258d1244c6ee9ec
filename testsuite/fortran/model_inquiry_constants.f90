! adgen-test
! head: scaled_norm(r)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(-2.0, 2.0)
! arg r: real(8)
!
! Machine constants from the inquiry functions of the number model, in PARAMETERs of a
! module as LAPACK 3.10's la_constants writes them (radix, digits, minexponent,
! maxexponent, precision, range), of double and single precision and integer kinds: the
! values gfortran gives them. Before: "intrinsic 'radix' is not supported".
module machine
  implicit none
  integer, parameter :: wp = kind(1.d0), sp = kind(1.0)
  real(wp), parameter :: safmin = real(radix(0._wp), wp)**max(minexponent(0._wp) - 1, &
                                                              1 - maxexponent(0._wp))
  real(wp), parameter :: ulp = real(radix(0._wp), wp)**(1 - digits(0._wp))
  integer, parameter :: places = precision(0._wp) + range(0._wp) + digits(0._sp) + &
                                 range(0) + digits(0) + minexponent(0._sp) + maxexponent(0._sp)
end module machine

subroutine scaled_norm(n, x, r)
  use machine
  implicit none
  integer, intent(in) :: n
  real(wp), intent(in) :: x(n)
  real(wp), intent(out) :: r
  real(wp) :: s
  integer :: i
  s = safmin
  do i = 1, n
    s = s + (x(i) * (1 + ulp)) ** 2
  end do
  r = sqrt(s) * places / 500
end subroutine scaled_norm
