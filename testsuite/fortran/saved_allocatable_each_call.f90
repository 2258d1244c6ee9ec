! adgen-test
! head: f(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = [0.3d0, -0.5d0, 1.2d0, 0.7d0]
! arg y: real(8)
!
! A procedure under a bare SAVE whose allocatable array is allocated and deallocated on
! every call: it carries nothing from one call to the next, so it is accepted.
subroutine f(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), allocatable :: work(:)
  save
  allocate(work(n))
  work = x * 2d0 + sin(x)
  y = sum(work * x)
  deallocate(work)
end subroutine f
