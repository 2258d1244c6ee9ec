! Checks step_d and step_b, whose independents and dependents are module variables whose
! derivatives the interface modules declare: the tangent against central finite differences
! of the primal, the adjoint against the tangent (dot-product test); a pure independent's
! adjoint is set whatever it held, the seeds of pure dependents are consumed, and the
! primal outputs are the primal's. Prints PASS.
program main
  use stepper
  use m_b_interface
  use m_d_interface
  implicit none
  real(8), parameter :: dt = 0.3d0, h = 1d-6
  real(8) :: u(9), v(9), w(8), y(8), yp(8), ym(8), t(8), force(4), forced(4), forceb(4)
  real(8) :: lhs, rhs
  u = [1.5d0, 0.3d0, -0.7d0, 1.1d0, 0.4d0, 0.2d0, -0.5d0, 0.9d0, 0.1d0]
  v = [0.7d0, -0.2d0, 0.5d0, 0.3d0, -0.9d0, 0.4d0, 0.6d0, -0.1d0, 0.8d0]
  w = [0.3d0, -0.6d0, 0.2d0, 0.9d0, -0.4d0, 0.5d0, 0.7d0, -0.3d0]
  call primal(u + h * v, yp)
  call primal(u - h * v, ym)
  call primal(u, y)
  ! tangent: the module variables' tangents set and read as the primal's are
  call set_inputs(u)
  gaind = v(1)
  stated = v(2:5)
  forced = v(6:9)
  energyd = 99d0
  call step_d(dt, force, forced)
  t = [stated, energyd, traced]
  if (any(abs(t - (yp - ym) / (2 * h)) > 1d-6 * (abs(t) + 1d-3))) stop 1
  if (any(outputs() /= y)) stop 2
  ! adjoint: a pure independent's adjoint set, the pure dependents' seeds consumed
  call set_inputs(u)
  gainb = 123d0
  stateb = w(1:4)
  energyb = w(5)
  traceb = w(6:8)
  forceb = -7d0
  call step_b(dt, force, forceb)
  lhs = dot_product(w, t)
  rhs = v(1) * gainb + dot_product(v(2:5), stateb) + dot_product(v(6:9), forceb)
  if (abs(lhs - rhs) > 1d-12 * abs(lhs)) stop 3
  if (energyb /= 0d0 .or. any(traceb /= 0d0)) stop 4
  if (any(outputs() /= y)) stop 5
  print *, 'PASS'
contains
  subroutine set_inputs(u)
    real(8), intent(in) :: u(9)
    gain = u(1)
    state = u(2:5)
    force = u(6:9)
  end subroutine set_inputs
  function outputs() result(y)
    real(8) :: y(8)
    y = [state, energy, trace]
  end function outputs
  subroutine primal(u, y)
    real(8), intent(in) :: u(9)
    real(8), intent(out) :: y(8)
    call set_inputs(u)
    call step(dt, force)
    y = outputs()
  end subroutine primal
end program main
