! adgen-test
! head: model(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)[n]
!
! Names a module imports under another name in its specification part
! (`use consts_m, only: g => gam, wp => dp, amp => gain`, a procedure `sq => square`) are
! seen by its contained procedures and by the modules and procedures that use it in turn.
! They were not: the contained procedures took `g` for an implicit local of value 0 (wrong
! values and derivatives, no error), and the kind `wp` was refused.
module consts_m
  implicit none
  integer, parameter :: dp = kind(1.d0)
  real(dp), parameter :: gam = 1.4d0
  real(dp) :: gain = 0.75d0
contains
  pure function square(v) result(r)
    real(dp), intent(in) :: v
    real(dp) :: r
    r = v * v
  end function square
end module consts_m

module ops_m
  use consts_m, only: g => gam, wp => dp, amp => gain, sq => square
  implicit none
contains
  subroutine stage(n, x, y)
    integer, intent(in) :: n
    real(wp), intent(in) :: x(n)
    real(wp), intent(out) :: y(n)
    integer :: i
    do i = 1, n
      y(i) = g * sq(x(i)) + amp * sin(x(i))
    end do
  end subroutine stage
end module ops_m

module phys_m
  use ops_m, only: stage, rk => wp, gamma => g
end module phys_m

subroutine model(n, x, y)
  use phys_m
  implicit none
  integer, intent(in) :: n
  real(rk), intent(in) :: x(n)
  real(rk), intent(out) :: y(n)
  call stage(n, x, y)
  y = y / gamma + x
end subroutine model
