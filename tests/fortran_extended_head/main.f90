! Calls the adjoint and the tangent of advance through their interface modules, with
! structures of the module's extended types, and checks them against each other
! (dot-product test) and against central finite differences of the gfortran-compiled
! primal.
program main
  use bodies
  use advance_b_interface
  use advance_d_interface
  implicit none
  type(body_t) :: b0, b, bd, bb, w, bp, bm, fd
  type(point2) :: f0(3), f(3), fdot(3), fbar(3), fw(3), fp(3), fm(3), ffd(3)
  real(8) :: dt, h, lhs, rhs
  dt = 0.05d0
  call filled(b0, f0, 0.3d0)
  call filled(bd, fdot, 1.1d0)
  call filled(w, fw, 2.3d0)
  ! tangent: J (bd, fdot)
  b = b0
  f = f0
  call advance_d(b, bd, f, fdot, dt)
  lhs = dot(w, fw, bd, fdot)
  ! adjoint: J^T (w, fw)
  b = b0
  f = f0
  bb = w
  fbar = fw
  call advance_b(b, bb, f, fbar, dt)
  call filled(bd, fdot, 1.1d0)
  rhs = dot(bb, fbar, bd, fdot)
  if (abs(lhs - rhs) > 1d-12 * abs(lhs)) stop 1
  ! central finite differences of the primal
  h = 1d-6
  call axpy(h, bd, fdot, b0, f0, bp, fp)
  call axpy(-h, bd, fdot, b0, f0, bm, fm)
  call advance(bp, fp, dt)
  call advance(bm, fm, dt)
  call axpy(-1.0d0, bm, fm, bp, fp, fd, ffd)
  if (abs(dot(w, fw, fd, ffd) / (2 * h) - lhs) > 1d-6 * abs(lhs)) stop 2
  print *, 'PASS', lhs, rhs, dot(w, fw, fd, ffd) / (2 * h)
end program main
