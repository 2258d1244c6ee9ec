! adgen-test
! head: drag_force(f)/(v cd)
! arg n: integer = 5
! arg v: real(8)[n] = uniform(1, 3)
! arg cd: real(8) = 0.47
! arg f: real(8)[n]
!
! A module with kind and real parameters and module variables with initial values
! (the C output reads gfortran's __physics_MOD_rho), the head a module procedure
! (symbol __physics_MOD_drag_force) calling a module function from `contains`.
module physics
  implicit none
  integer, parameter :: dp = 8
  real(dp), parameter :: pi = 3.141592653589793_dp
  real(dp), parameter :: half = 0.5_dp
  real(dp) :: rho = 1.225_dp
  real(dp) :: radius = 0.1_dp
contains
  function area() result(a)
    real(dp) :: a
    a = pi * radius**2
  end function area

  subroutine drag_force(n, v, cd, f)
    integer, intent(in) :: n
    real(dp), intent(in) :: v(n), cd
    real(dp), intent(out) :: f(n)
    integer :: i
    do i = 1, n
      f(i) = half * rho * cd * area() * v(i) * abs(v(i))
    end do
  end subroutine drag_force
end module physics
