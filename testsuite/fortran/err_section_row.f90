! adgen-test
! head: row_norms(r)/(a)
! expect-error: not contiguous
! expect-error-line: 30
!
! A row of a column-major matrix, a(i, :), is not contiguous in memory: adgen passes
! array sections by the address of their first element, so it must refuse this one
! with an error at the call (columns and parts of columns are fine).
module row_kernels
  implicit none
contains
  subroutine add_sqnorm(v, acc)
    real(8), intent(in) :: v(:)
    real(8), intent(inout) :: acc
    acc = acc + dot_product(v, v)
  end subroutine add_sqnorm
end module row_kernels

subroutine row_norms(m, n, a, r)
  use row_kernels
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: r(m)
  integer :: i
  r = 0.0d0
  call add_sqnorm(a(:, 1), r(1))
  call add_sqnorm(a(2:m, 2), r(2))
  do i = 1, m
    call add_sqnorm(a(i, :), r(i))
  end do
end subroutine row_norms
