! adgen-test
! head: rows(r)/(u)
! expect-error: in its subscripts a second time
! expect-error-line: 31
!
! u(pick(k), :) is a row of u, not contiguous in memory: it is passed through a copy, and
! copied back after the call as the dummy is not INTENT(IN). The copy back would evaluate
! the subscript, and call pick, a second time (pick counts its calls), so adgen refuses it.
module row_kernels
  implicit none
  integer :: calls = 0
contains
  integer function pick(k)
    integer, intent(in) :: k
    calls = calls + 1
    pick = k
  end function pick

  subroutine damp(v, n)
    integer, intent(in) :: n
    real(8), intent(inout) :: v(n)
    v = 0.5d0 * v
  end subroutine damp
end module row_kernels

subroutine rows(u, r)
  use row_kernels
  implicit none
  real(8), intent(inout) :: u(3, 4)
  real(8), intent(out) :: r
  call damp(u(pick(2), :), 4)
  r = sum(u) + calls
end subroutine rows
