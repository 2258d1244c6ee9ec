! A mesh whose geometry is held in allocatable components, allocated by the Fortran
! caller: the heads run(cost)/(q) and remesh(cost)/(q) (adjoint and tangent) read it as
! inactive data; remesh also allocates a component again for the caller
! (tests/test_fortran.py, test_head_with_allocatable_components).
module meshes
  implicit none
  type :: mesh_t
    integer :: n
    real(8), allocatable :: x(:)
    real(8), allocatable :: vol(:)
    real(8), allocatable :: scratch(:)
  end type mesh_t
contains
  subroutine run(m, q, cost)
    type(mesh_t), intent(in) :: m
    real(8), intent(in) :: q(m%n)
    real(8), intent(out) :: cost
    integer :: i
    cost = 0.0d0
    do i = 1, m%n
      cost = cost + m%vol(i) * q(i)**2 * m%scratch(lbound(m%scratch, 1) + i - 1) + &
        sin(q(i)) * m%x(i)
    end do
    cost = cost + sum(m%vol * q) / size(m%x)
  end subroutine run

  subroutine remesh(m, q, cost)
    type(mesh_t), intent(inout) :: m
    real(8), intent(in) :: q(m%n)
    real(8), intent(out) :: cost
    integer :: i, ierr
    if (allocated(m%scratch)) deallocate(m%scratch)
    allocate(m%scratch(0:m%n - 1), stat=ierr)
    do i = 0, m%n - 1
      m%scratch(i) = m%x(i + 1) + m%x(i)
    end do
    call run(m, q, cost)
  end subroutine remesh

  subroutine make_mesh(m, n)
    type(mesh_t), intent(inout) :: m
    integer, intent(in) :: n
    integer :: i
    m%n = n
    allocate(m%x(0:n), m%vol(n), m%scratch(n))
    m%x = [(i / real(n, 8) + 0.05d0 * sin(real(i, 8)), i = 0, n)]
    m%vol = m%x(1:n) - m%x(0:n - 1)
    m%scratch = m%x(1:n) + m%x(0:n - 1)
  end subroutine make_mesh
end module meshes
