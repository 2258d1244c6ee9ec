! adgen-test
! head: row_norms(r a)/(a)
! arg m: integer = 5
! arg n: integer = 4
! arg a: real(8)[m, n] = uniform(0.5, 1.5)
! arg r: real(8)[m] = 0.0
!
! Rows of a column-major matrix, a(i, :), and a strided part of a column, a(1:m:2, n),
! passed to assumed-shape dummies: their elements are not contiguous in memory, so they
! go through a copy, as gfortran passes them to an explicit-shape dummy: copied in before
! the call and back after it (scale_row changes its row), not back for an INTENT(IN)
! dummy (add_sqnorm). Columns and parts of columns are passed as they are.
module row_kernels
  implicit none
contains
  subroutine add_sqnorm(v, acc)
    real(8), intent(in) :: v(:)
    real(8), intent(inout) :: acc
    acc = acc + dot_product(v, v)
  end subroutine add_sqnorm

  subroutine scale_row(v, c)
    real(8) :: v(:)
    real(8), intent(in) :: c
    v = c * v * v
  end subroutine scale_row
end module row_kernels

subroutine row_norms(m, n, a, r)
  use row_kernels
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(inout) :: a(m, n)
  real(8), intent(out) :: r(m)
  integer :: i
  r = 0.0d0
  call add_sqnorm(a(:, 1), r(1))
  call add_sqnorm(a(2:m, 2), r(2))
  do i = 1, m
    call scale_row(a(i, :), 0.5d0 + i)
    call add_sqnorm(a(i, :), r(i))
  end do
  call scale_row(a(1:m:2, n), 2.0d0)
  r(1) = r(1) + a(1, n) * a(m, n)
end subroutine row_norms
