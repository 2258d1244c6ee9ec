! A mesh whose data are allocatable components, itself an independent: the heads
! energy(cost)/(m q) and relax(m)/(m) take the derivative mesh from the caller, a
! structure of the same type with components allocated to the same shapes
! (tests/test_fortran.py, test_head_with_a_mesh_independent).
module handles
  implicit none
  type :: mesh_t
    integer :: n
    real(8) :: h
    real(8), allocatable :: x(:)
    real(8), allocatable :: w(:, :)
    integer, allocatable :: ids(:)
  end type mesh_t
contains
  subroutine energy(m, q, cost)
    type(mesh_t), intent(in) :: m
    real(8), intent(in) :: q(m%n)
    real(8), intent(out) :: cost
    integer :: i
    cost = 0.0d0
    do i = 1, m%n
      cost = cost + m%h * (m%x(i) - m%x(i - 1))**2 * q(i) + &
        m%w(1, i) * sin(q(i)) * m%w(2, i)
    end do
    cost = cost + sum(m%x**2) * m%ids(1)
  end subroutine energy

  subroutine relax(m)
    type(mesh_t), intent(inout) :: m
    integer :: i
    do i = 1, m%n - 1
      m%x(i) = 0.5d0 * (m%x(i - 1) + m%x(i + 1)) + m%h * m%w(1, i) * m%x(i)
    end do
    m%h = m%h * sum(m%w(2, :) * m%x(1:m%n))
  end subroutine relax

  subroutine make_mesh(m, n, s)
    type(mesh_t), intent(inout) :: m
    integer, intent(in) :: n
    real(8), intent(in) :: s
    integer :: i
    m%n = n
    allocate(m%x(0:n), m%w(2, n), m%ids(n))
    m%h = 0.7d0 + 0.1d0 * s
    m%x = [(i / real(n, 8) + 0.05d0 * sin(s * i), i = 0, n)]
    m%w(1, :) = [(cos(s * i), i = 1, n)]
    m%w(2, :) = [(1.0d0 + 0.5d0 * sin(s * i + 1.0d0), i = 1, n)]
    m%ids = [(i, i = 1, n)]
  end subroutine make_mesh

  ! the dot product of two meshes' real data
  real(8) function mesh_dot(a, b)
    type(mesh_t), intent(in) :: a, b
    mesh_dot = a%h * b%h + sum(a%x * b%x) + sum(a%w * b%w)
  end function mesh_dot

  ! a + t * b, in a's data
  subroutine mesh_axpy(a, t, b)
    type(mesh_t), intent(inout) :: a
    real(8), intent(in) :: t
    type(mesh_t), intent(in) :: b
    a%h = a%h + t * b%h
    a%x = a%x + t * b%x
    a%w = a%w + t * b%w
  end subroutine mesh_axpy
end module handles
