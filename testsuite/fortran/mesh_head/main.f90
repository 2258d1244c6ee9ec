! Calls the derivatives of run and remesh (mesh.f90) through their interface modules with
! a mesh the program allocates: they read gfortran's descriptors of its components, and
! remesh_d and remesh_b allocate its scratch component again, which the program then
! reads and deallocates. The derivatives agree with each other and with central finite differences.
program main
  use meshes
  use run_b_interface
  use run_d_interface
  use remesh_d_interface
  use remesh_b_interface
  implicit none
  integer, parameter :: n = 6
  type(mesh_t) :: m
  real(8) :: q(n), qb(n), qd(n), cost, costb, costd, cp, cm, h, fd, ref(n)
  integer :: i
  call make_mesh(m, n)
  ref = m%scratch
  q = [(0.3d0 + 0.1d0 * i, i = 1, n)]
  qd = [(cos(1.0d0 * i), i = 1, n)]
  costb = 1.0d0
  qb = 0.0d0
  call run_b(m, q, qb, cost, costb)
  call run_d(m, q, qd, cost, costd)
  if (abs(costd - sum(qb * qd)) > 1d-12 * abs(costd)) stop 1
  h = 1d-6
  call run(m, q + h * qd, cp)
  call run(m, q - h * qd, cm)
  fd = (cp - cm) / (2 * h)
  if (abs(fd - costd) > 1d-7 * abs(costd)) stop 2
  ! remesh_d deallocates the program's scratch and allocates one of other bounds
  call remesh_d(m, q, qd, cost, cp)
  if (.not. allocated(m%scratch)) stop 3
  if (lbound(m%scratch, 1) /= 0 .or. ubound(m%scratch, 1) /= n - 1) stop 4
  if (any(abs(m%scratch - ref) > 1d-15)) stop 5
  if (abs(cp - costd) > 1d-12 * abs(costd)) stop 6
  m%scratch(n - 1) = 2.0d0 * m%scratch(n - 1)   ! gfortran writes through it, and frees it
  deallocate(m%scratch)
  allocate(m%scratch(3:n + 2))
  m%scratch = ref
  call remesh_d(m, q, qd, cost, cp)
  if (abs(cp - costd) > 1d-12 * abs(costd) .or. size(m%scratch) /= n) stop 7
  ! remesh_b the same: the old scratch freed, the new one left to the program
  deallocate(m%scratch)
  allocate(m%scratch(3:n + 2))
  m%scratch = ref
  qb = 0.0d0
  costb = 1.0d0     ! (run_b consumed the seed)
  call remesh_b(m, q, qb, cost, costb)
  if (.not. allocated(m%scratch)) stop 8
  if (lbound(m%scratch, 1) /= 0 .or. ubound(m%scratch, 1) /= n - 1) stop 9
  if (any(abs(m%scratch - ref) > 1d-15)) stop 10
  if (abs(sum(qb * qd) - costd) > 1d-12 * abs(costd)) stop 11
  deallocate(m%x, m%vol, m%scratch)
  print *, 'PASS', costd, sum(qb * qd), fd
end program main
