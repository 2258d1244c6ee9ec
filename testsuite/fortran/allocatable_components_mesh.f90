! adgen-test
! head: flow(cost)/(q)
! arg n: integer = 8
! arg q: real(8)[n] = uniform(0.5, 1.5)
! arg cost: real(8)
! setup: build_mesh
!
! A mesh whose coordinates, cell volumes and connectivity are allocatable components of a
! derived type: a module variable that the gfortran-compiled setup routine allocates and
! fills (gfortran's descriptors, read by the C code through the struct's layout), and that
! the head reads as inactive geometry; the head passes it on to a procedure taking the
! structure, and a component to an assumed-shape dummy.
module mesh_mod
  implicit none
  type :: mesh_t
    integer :: ncell
    real(8), allocatable :: x(:)
    real(8), allocatable :: vol(:)
    integer, allocatable :: nbr(:, :)
    logical, allocatable :: wall(:)
  end type mesh_t
  type(mesh_t) :: mesh
contains
  subroutine build_mesh()
    integer :: i, n
    if (allocated(mesh%x)) return       ! (the test driver calls it before each run)
    n = 8
    mesh%ncell = n
    allocate(mesh%x(0:n), mesh%vol(n), mesh%nbr(2, n), mesh%wall(n))
    do i = 0, n
      mesh%x(i) = (i + 0.1d0 * sin(1.0d0 * i)) / n
    end do
    do i = 1, n
      mesh%vol(i) = mesh%x(i) - mesh%x(i - 1)
      mesh%nbr(1, i) = max(i - 1, 1)
      mesh%nbr(2, i) = min(i + 1, n)
      mesh%wall(i) = i == 1 .or. i == n
    end do
  end subroutine build_mesh

  real(8) function weighted(v, w)
    real(8), intent(in) :: v(:), w(:)
    weighted = sum(v * w) / sum(w)
  end function weighted

  subroutine step(m, q, dt)
    type(mesh_t), intent(in) :: m
    real(8), intent(inout) :: q(:)
    real(8), intent(in) :: dt
    real(8) :: flux(size(q))
    integer :: i
    do i = 1, m%ncell
      flux(i) = q(m%nbr(2, i)) - 2.0d0 * q(i) + q(m%nbr(1, i))
      if (m%wall(i)) flux(i) = 0.5d0 * flux(i)
    end do
    q = q + dt * flux / m%vol**2 * (m%x(1:m%ncell) - m%x(0:m%ncell - 1))
  end subroutine step

  subroutine flow(n, q, cost)
    integer, intent(in) :: n
    real(8), intent(inout) :: q(n)
    real(8), intent(out) :: cost
    integer :: k
    if (.not. allocated(mesh%vol) .or. size(mesh%vol) /= n) return
    do k = 1, 4
      call step(mesh, q, 0.002d0)
      q = q * (1.0d0 + 0.1d0 * sin(q))
    end do
    cost = weighted(q**2, mesh%vol) + q(ubound(mesh%vol, 1)) * mesh%x(lbound(mesh%x, 1) + 1)
  end subroutine flow
end module mesh_mod
