! adgen-test
! head: block_sums(r)/(a)
! expect-error: depends on 'm'
! expect-error-line: 29
!
! a(1:m, 2:3) looks like two whole columns of a(m, n), which are contiguous in memory,
! but the procedure changes m after entry, while a keeps the shape it had on entry:
! a(1:m, 2:3) is then part of each column. adgen passes sections by the address of
! their first element, so it must refuse this one.
module block_kernels
  implicit none
contains
  subroutine add_all(v, acc)
    real(8), intent(in) :: v(:, :)
    real(8), intent(inout) :: acc
    acc = acc + sum(v * v)
  end subroutine add_all
end module block_kernels

subroutine block_sums(m, n, a, r)
  use block_kernels
  implicit none
  integer, intent(inout) :: m
  integer, intent(in) :: n
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: r
  r = 0.0d0
  m = m - 1
  call add_all(a(1:m, 2:3), r)
end subroutine block_sums
