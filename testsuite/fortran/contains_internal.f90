! adgen-test
! head: chain_energy(e)/(x k)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0, 2)
! arg k: real(8) = 3.0
! arg e: real(8)
!
! Internal procedures (`contains` in a subroutine) reading the host's variables by
! host association, an internal function and an internal subroutine with intent(out).
subroutine chain_energy(n, x, k, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), k
  real(8), intent(out) :: e
  integer :: i
  real(8) :: rest, t
  rest = 0.3d0
  e = 0.0d0
  do i = 1, n - 1
    call link(x(i), x(i+1), t)
    e = e + t
  end do
  e = e + pin(x(1)) + pin(x(n))
contains
  subroutine link(a, b, energy)
    real(8), intent(in) :: a, b
    real(8), intent(out) :: energy
    energy = 0.5d0 * k * (b - a - rest)**2
  end subroutine link

  real(8) function pin(a)
    real(8), intent(in) :: a
    pin = k * 0.1d0 * a**4
  end function pin
end subroutine chain_energy
