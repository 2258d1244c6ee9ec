! adgen-test
! head: shift_rows(a)/(a)
! expect-error: may change in the call
! expect-error-line: 26
!
! Must be refused: the row a(i, :) goes through a copy that is assigned back after the
! call, but the call may change i, which the section's subscript reads.
module row_steps
  implicit none
contains
  subroutine halve_next(v, i)
    real(8), intent(inout) :: v(:)
    integer, intent(inout) :: i
    v = 0.5d0 * v
    i = i + 1
  end subroutine halve_next
end module row_steps

subroutine shift_rows(m, n, a)
  use row_steps
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(inout) :: a(m, n)
  integer :: i
  i = 1
  call halve_next(a(i, :), i)
end subroutine shift_rows
