! adgen-test
! head: pick(y)/(x)
! arg x: real(8)[12] = uniform(-1, 1)
! arg y: real(8)
!
! maxloc and minloc of arrays of rank 2 and 3 without DIM: an array of positions (from 1
! in each dimension, whatever the lower bounds), the first extremum in array element
! order; of an expression (abs), of a section, with ties, in size(), passed to a
! procedure. The positions pick the elements whose derivatives flow.
module picking
  implicit none
contains
  real(8) function at(m, ij)
    real(8), intent(in) :: m(0:2, -1:2)
    integer, intent(in) :: ij(2)
    at = m(ij(1) - 1, ij(2) - 2)
  end function at
end module picking

subroutine pick(x, y)
  use picking
  implicit none
  real(8), intent(in) :: x(12)
  real(8), intent(out) :: y
  real(8) :: m(0:2, -1:2), c(2, 2, 3), flat(3, 2)
  integer :: ij(2), ijk(3), i, j
  m = reshape(x, [3, 4])
  ij = maxloc(m)
  y = m(ij(1) - 1, ij(2) - 2) * 2
  ij = minloc(abs(m))
  y = y + m(ij(1) - 1, ij(2) - 2)**2 + size(maxloc(m)) * x(1)
  c = reshape([x, x], [2, 2, 3])
  ijk = maxloc(c * c)
  y = y + c(ijk(1), ijk(2), ijk(3)) * sum(ijk)
  flat = 1d0
  flat(2, 2) = 1d0 + x(5)**2
  flat(3, 1) = flat(2, 2)
  ij = maxloc(flat)
  y = y + flat(ij(1), ij(2)) * ij(1) + ij(2)
  ij = maxloc(m(1:2, 0:2))
  y = y + m(ij(1), ij(2) - 1) + at(m, maxloc(m))
  do j = 1, 2
    do i = 1, 2
      ij = minloc(c(:, :, j + 1) + i)
      y = y + c(ij(1), ij(2), j + 1) * i
    end do
  end do
end subroutine pick
