! adgen-test
! head: energy(e)/(u)
! setup: fill_coefficients
! arg n: integer = 5
! arg u: real(8)[n] = uniform(-1, 1)
! arg e: real(8)
!
! Allocatable module variables that a setup routine (compiled by gfortran) allocates and
! fills: a vector with lower bound 0 and a matrix, read by the head through gfortran's
! array descriptors.
module grid
  implicit none
  real(8), allocatable :: w(:)
  real(8), allocatable :: k(:, :)
end module grid

subroutine fill_coefficients()
  use grid
  implicit none
  integer :: i, j
  if (.not. allocated(w)) allocate(w(0:5), k(3, 5))
  do i = 0, 5
    w(i) = 0.5d0 + 0.1d0 * i
  end do
  do j = 1, 5
    do i = 1, 3
      k(i, j) = 1d0 / (i + j)
    end do
  end do
end subroutine fill_coefficients

subroutine energy(n, u, e)
  use grid
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: e
  integer :: i
  e = 0d0
  if (.not. allocated(w)) return
  do i = 1, n
    e = e + w(i) * u(i)**2 + k(mod(i, 3) + 1, i) * sin(u(i))
  end do
  e = e + sum(w(1:n) * u) * size(k, 2) + lbound(w, 1)
end subroutine energy
