! A module in its own file, used by testsuite/fortran/multi_file.f90 (`sources:`).
module constants_mod
  implicit none
  integer, parameter :: wp = 8
  real(wp), parameter :: gravity = 9.81_wp
  real(wp) :: drag_coefficient = 0.02_wp
contains
  real(wp) function friction(v)
    real(wp), intent(in) :: v
    friction = drag_coefficient * v * abs(v)
  end function friction
end module constants_mod
