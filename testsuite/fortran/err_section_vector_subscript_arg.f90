! adgen-test
! head: gather_scale(u)/(u)
! expect-error: with a vector subscript it cannot be copied back
! expect-error-line: 25
!
! Must be refused: u(idx) passed to a dummy that is not INTENT(IN). A section with a
! vector subscript goes through a copy, and Fortran does not let such a section be
! assigned (the indices may repeat), so the copy cannot be assigned back.
module gather_kernels
  implicit none
contains
  subroutine double_it(v)
    real(8), intent(inout) :: v(:)
    v = 2.0d0 * v
  end subroutine double_it
end module gather_kernels

subroutine gather_scale(n, idx, u)
  use gather_kernels
  implicit none
  integer, intent(in) :: n, idx(2)
  real(8), intent(inout) :: u(n)
  u(1) = u(1) * u(2)
  u(2) = u(2) + 1.0d0
  call double_it(u(idx))
end subroutine gather_scale
