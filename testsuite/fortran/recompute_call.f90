! adgen-test
! head: centre_energy(e)/(x mu)
! arg n: integer = 4
! arg k: integer = 3
! arg d: integer = 5
! arg x: real(8)[d,n] = uniform(-1, 1)
! arg mu: real(8)[d,k] = uniform(-1, 1)
! arg e: real(8)
!
! A scratch array refilled by a subroutine call at the top of a loop body: the adjoint
! calls it again in its backward sweep instead of storing the array (written for this
! project).
subroutine centred(d, a, b, c)
  implicit none
  integer, intent(in) :: d
  real(8), intent(in) :: a(d), b(d)
  real(8), intent(out) :: c(d)
  integer :: t
  do t = 1, d
    c(t) = a(t) - b(t)
  end do
end subroutine centred

subroutine centre_energy(n, k, d, x, mu, e)
  implicit none
  integer, intent(in) :: n, k, d
  real(8), intent(in) :: x(d, n), mu(d, k)
  real(8), intent(out) :: e
  real(8) :: c(d)
  integer :: i, j
  e = 0.0d0
  do i = 1, n
    do j = 1, k
      call centred(d, x(1, i), mu(1, j), c)
      e = e + log(1.0d0 + sum(c**2)) * c(1)
    end do
  end do
end subroutine centre_energy
