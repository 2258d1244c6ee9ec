! adgen-test
! head: blend(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.2, 1.8)
! arg y: real(8)[n]
!
! `use` with `only:` and renames (of a variable, a parameter and a procedure); the
! renamed names hide nothing of the modules' other entities.
module shapes
  implicit none
  real(8), parameter :: width = 0.75d0
  real(8) :: gain = 2.0d0
  real(8) :: unused_here = -1.0d0
contains
  real(8) function bump(t)
    real(8), intent(in) :: t
    bump = exp(-(t / width)**2)
  end function bump
end module shapes

module weights
  implicit none
  real(8) :: gain = 0.25d0
contains
  real(8) function ramp(t)
    real(8), intent(in) :: t
    ramp = t * gain
  end function ramp
end module weights

subroutine blend(n, x, y)
  use shapes, only: g1 => gain, w => width, profile => bump
  use weights, only: g2 => gain, ramp
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: gain          ! a local of the same name as the modules' (renamed) gain
  integer :: i
  gain = g1 - g2
  do i = 1, n
    y(i) = gain * profile(x(i)) + ramp(x(i)) * w
  end do
end subroutine blend
