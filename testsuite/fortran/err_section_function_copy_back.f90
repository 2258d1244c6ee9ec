! adgen-test
! head: row_sums(s)/(a)
! expect-error: a function reference leaves no place to copy it back
! expect-error-line: 27
!
! Must be refused: a row a(i, :) is not contiguous in memory, so it is passed through a
! copy; the function's dummy is not INTENT(IN), so the copy would have to be assigned
! back after the call, and a function reference is inside an expression.
module row_functions
  implicit none
contains
  real(8) function total(v)
    real(8) :: v(:)
    total = sum(v)
  end function total
end module row_functions

subroutine row_sums(m, n, a, s)
  use row_functions
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: s
  integer :: i
  s = 0.0d0
  do i = 1, m
    s = s + total(a(i, :))**2
  end do
end subroutine row_sums
