! adgen-test
! head: norms(cost)/(x m)
! arg x: real(8)[4] = uniform(0.1, 1)
! arg m: real(8)[3, 4] = uniform(-1, 1)
! arg cost: real(8)
!
! norm2 along a dimension of a matrix (the Euclidean norm of each column or row, an array)
! in array expressions and reductions, and norm2 of a vector with DIM=1 (a scalar).
subroutine norms(x, m, cost)
  implicit none
  real(8), intent(in) :: x(4), m(3, 4)
  real(8), intent(out) :: cost
  real(8) :: cols(4), rows(3)
  cols = norm2(m, dim=1) * x
  rows = norm2(m * 2.0d0, 2) + sin(m(:, 1))
  cost = sum(cols) + maxval(norm2(m, dim=1)) + dot_product(rows, rows) + norm2(x, 1)
end subroutine norms
