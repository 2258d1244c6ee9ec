! adgen-test
! head: energy(e)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg e: real(8)
!
! Kind parameters seen where they are not declared: a function's `real(wp)` prefix whose
! `wp` comes from a USE statement inside the function, internal procedures declaring
! `real(wp)` and `real(rk)` and writing `0.1_wp` with `wp` from the host's USE and `rk` a
! PARAMETER of the host, and an internal function with a `real(wp)` prefix.
module kinds_hp
  implicit none
  integer, parameter :: wp = kind(1.d0)
end module kinds_hp

real(wp) function quartic(v)
  use kinds_hp, only: wp
  implicit none
  real(wp), intent(in) :: v
  quartic = 0.25_wp * v**4
end function quartic

subroutine energy(n, x, e)
  use kinds_hp, only: wp
  implicit none
  integer, parameter :: rk = selected_real_kind(15)
  integer, intent(in) :: n
  real(wp), intent(in) :: x(n)
  real(wp), intent(out) :: e
  real(wp), external :: quartic
  real(rk) :: t
  integer :: i
  e = 0.0_wp
  do i = 1, n
    call bond(x(i), t)
    e = e + t + pull(x(i)) + quartic(x(i))
  end do
contains
  subroutine bond(a, w)
    real(wp), intent(in) :: a
    real(rk), intent(out) :: w
    w = 0.1_wp * a**2 + 1.0e-9_rk * a
  end subroutine bond

  real(wp) function pull(a)
    real(wp), intent(in) :: a
    pull = sin(a) * 0.3_wp
  end function pull
end subroutine energy
