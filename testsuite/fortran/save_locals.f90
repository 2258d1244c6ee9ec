! adgen-test
! head: twice(z)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = [0.3d0, -0.5d0, 1.2d0, 0.7d0, 0.1d0]
! arg z: real(8)[n]
!
! SAVEd locals: by attribute, by a SAVE statement after the declarations, and by an initial
! value (a flag set on the first call, a call counter); weights set once, a scratch array
! overwritten by every call, which the head calls four times.
subroutine smooth(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8), save :: w(3)
  real(8) :: scratch(8)
  logical :: ready = .false.
  integer :: calls = 0
  real(8) :: scale
  integer :: i
  save :: scratch, scale
  if (.not. ready) then
    w = [0.25d0, 0.5d0, 0.25d0]
    scale = 1.5d0
    ready = .true.
  end if
  calls = calls + 1
  do i = 1, n
    scratch(1) = x(max(i - 1, 1))
    scratch(2) = x(i)
    scratch(3) = x(min(i + 1, n))
    y(i) = scale * sin(w(1) * scratch(1) + w(2) * scratch(2) + w(3) * scratch(3))
  end do
end subroutine smooth

subroutine twice(n, x, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: z(n)
  real(8) :: y(n)
  integer :: k
  call smooth(n, x, y)
  do k = 1, 3
    call smooth(n, y, z)
    y = z * y
  end do
end subroutine twice
