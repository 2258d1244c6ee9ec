! Calls the derivatives of energy and relax (mesh.f90) through their interface modules,
! with derivative meshes the program allocates like the mesh; the adjoints of pure inputs
! are set (filled with garbage first). The derivatives agree with each other and with
! central finite differences.
program main
  use handles
  use energy_b_interface
  use energy_d_interface
  use relax_b_interface
  use relax_d_interface
  implicit none
  integer, parameter :: n = 6
  type(mesh_t) :: m, mb, md, w, mp, mm
  real(8) :: q(n), qb(n), qd(n), cost, costb, costd, cp, cm, h, fd, lhs, rhs
  integer :: i
  h = 1d-6
  call make_mesh(m, n, 0.3d0)
  call make_mesh(md, n, 1.1d0)
  call make_mesh(w, n, 2.3d0)
  q = [(0.3d0 + 0.1d0 * i, i = 1, n)]
  qd = [(cos(1.0d0 * i), i = 1, n)]
  ! energy: the mesh a pure input
  call make_mesh(mb, n, 0.0d0)
  mb%h = 1d30
  mb%x = 1d30
  mb%w = 1d30
  qb = 1d30
  costb = 1.0d0
  call energy_b(m, mb, q, qb, cost, costb)
  call energy_d(m, md, q, qd, cost, costd)
  rhs = mesh_dot(mb, md) + sum(qb * qd)
  if (abs(costd - rhs) > 1d-12 * abs(costd)) stop 1
  mp = m
  mm = m
  call mesh_axpy(mp, h, md)
  call mesh_axpy(mm, -h, md)
  call energy(mp, q + h * qd, cp)
  call energy(mm, q - h * qd, cm)
  fd = (cp - cm) / (2 * h)
  if (abs(fd - costd) > 1d-7 * abs(costd)) stop 2
  print *, 'energy', costd, rhs, fd
  ! relax: the mesh in and out
  mp = md
  mm = m
  call relax_d(mm, mp)
  lhs = mesh_dot(w, mp)
  mb = w
  mm = m
  call relax_b(mm, mb)
  rhs = mesh_dot(mb, md)
  if (abs(lhs - rhs) > 1d-12 * abs(lhs)) stop 3
  mp = m
  mm = m
  call mesh_axpy(mp, h, md)
  call mesh_axpy(mm, -h, md)
  call relax(mp)
  call relax(mm)
  call mesh_axpy(mp, -1.0d0, mm)
  fd = mesh_dot(w, mp) / (2 * h)
  if (abs(fd - lhs) > 1d-7 * abs(lhs)) stop 4
  print *, 'relax', lhs, rhs, fd
  print *, 'PASS'
end program main
