! Calls the adjoint and the tangent of relax through their interface modules, with
! structures of the module's type, and checks them against each other (dot-product test)
! and against central finite differences of the gfortran-compiled primal.
program main
  use grid
  use relax_b_interface
  use relax_d_interface
  implicit none
  type(state_t) :: s0, s, sd, sb, w, sp, sm, fd
  real(8) :: dt, h, lhs, rhs
  dt = 0.01d0
  call filled(s0, 0.3d0)
  call filled(sd, 1.1d0)
  call filled(w, 2.3d0)
  ! tangent: J sd
  s = s0
  call relax_d(s, sd, dt)
  ! adjoint: J^T w
  s = s0
  sb = w
  call relax_b(s, sb, dt)
  lhs = dot(w, sd)
  rhs = 0.0d0
  call filled(sd, 1.1d0)
  rhs = dot(sb, sd)
  if (abs(lhs - rhs) > 1d-12 * abs(lhs)) stop 1
  ! central finite differences of the primal
  h = 1d-6
  call axpy(h, sd, s0, sp)
  call axpy(-h, sd, s0, sm)
  call relax(sp, dt)
  call relax(sm, dt)
  call axpy(-1.0d0, sm, sp, fd)
  if (abs(dot(w, fd) / (2 * h) - lhs) > 1d-6 * abs(lhs)) stop 2
  print *, 'PASS', lhs, rhs, dot(w, fd) / (2 * h)
end program main
