! A stepper keeping its model in module variables: the gain and the state are independents,
! the state, the energy and the trace dependents, the forcing a dummy argument; rate carries
! derivatives inside only (tests/test_fortran.py: test_module_variable_heads).
module stepper
  implicit none
  real(8) :: gain = 1.5d0
  real(8) :: state(0:3)
  real(8) :: energy
  real(8) :: trace(3)
  real(8) :: rate
contains
  subroutine step(dt, force)
    real(8), intent(in) :: dt, force(4)
    integer :: i
    real(8) :: e
    e = 0d0
    rate = gain * dt
    do i = 0, 3
      state(i) = state(i) + rate * sin(state(mod(i + 1, 4))) + dt * force(i + 1) * state(i)
      e = e + state(i)**2
    end do
    energy = 0.5d0 * e
    do i = 1, 3
      trace(i) = state(i - 1) * state(i) + gain
    end do
  end subroutine step
end module stepper
