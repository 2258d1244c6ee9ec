! adgen-test
! head: energy(e)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg e: real(8)
!
! An element of an array component of every structure of an array, or of a section of
! one (`p%f(k)`, `p(2:n)%f(3)`, `p%m(2, 1)`, `c(1, :)%s%f(2)`): an array of the structures'
! shape, whose subscripts select in the component, in assignments, reductions, a CALL
! (through a copy, copied back), an IF condition and a WHERE mask and assignment.
module parts
  implicit none
  type particle
    real(8) :: f(3)
    real(8) :: m(2, 2)
    real(8) :: w
  end type particle
  type cell
    type(particle) :: s
    real(8) :: rho
  end type cell
contains
  subroutine scale(k, v, c)
    integer, intent(in) :: k
    real(8), intent(inout) :: v(k)
    real(8), intent(in) :: c
    v = c * v + 0.1d0 * v**2
  end subroutine scale
end module parts

subroutine energy(n, x, e)
  use parts
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: e
  type(particle) :: p(n)
  type(cell) :: c(2, n)
  integer :: i, k
  do i = 1, n
    p(i)%f = [x(i), 2d0 * x(i), x(i)**2]
    p(i)%m = reshape([x(i), 1d0, 0.5d0, x(i)**3], [2, 2])
    p(i)%w = 1d0 / i
  end do
  do i = 1, n
    c(1, i)%s = p(i)
    c(2, i)%s = p(n + 1 - i)
    c(:, i)%rho = x(i)
  end do
  k = 2
  p%f(k) = p%f(k) * p%w + x
  p(2:n)%f(3) = p(1:n-1)%f(1)
  p%m(2, 1) = p%m(1, 1) * p%m(2, 2)
  call scale(n, p%f(1), 0.9d0)
  c(1, :)%s%f(2) = c(2, :)%s%f(3) + c(1, :)%rho
  if (sum(p%f(3)) > 1d0) p%w = p%w + 0.5d0 * p%f(3)
  where (p%f(2) > 2d0) p%w = p%w * p%f(1)
  e = sum(p%w) + sum(p%f(1) * p%f(2)) + sum(p%f(3)**2) + sum(p(1:n)%f(2)) + sum(p%m(2, 1)) &
      + sum(c%s%f(2) * c%s%m(1, 2))
end subroutine energy
