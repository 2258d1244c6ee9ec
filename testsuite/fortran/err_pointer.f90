! adgen-test
! head: pick(y)/(x)
! expect-error: pointer
! expect-error-line: 13-16
!
! A local POINTER may point at arrays the procedure has (pointer_buffers.f90); storage of
! its own (ALLOCATE, DEALLOCATE of it) is refused at that line.
subroutine pick(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), pointer :: p(:)
  allocate(p(n))
  p = x * x
  y = sum(p)
  deallocate(p)
end subroutine pick
