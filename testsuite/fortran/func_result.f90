! adgen-test
! head: energy(energy)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(-1, 1)
! arg w: real(8) = 1.5
!
! A real(8) function whose result is the dependent: reverse mode takes the
! result's seed as a last argument, tangent mode returns the result's tangent.
function energy(n, x, w)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w
  real(8) :: energy
  integer :: i
  energy = 0.0d0
  do i = 1, n - 1
    energy = energy + w * (x(i+1) - x(i))**2 + sin(x(i)) * x(i+1)
  end do
  energy = energy + 0.5d0 * x(n)**2
end function energy
