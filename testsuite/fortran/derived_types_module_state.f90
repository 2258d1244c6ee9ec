! adgen-test
! head: integrate(cost)/(c0 q)
! arg n: integer = 7
! arg c0: real(8)[n] = uniform(0.5, 1.5)
! arg q: real(8)[2] = uniform(0.1, 0.4)
! arg cost: real(8)
! setup: set_mesh
!
! A reaction-diffusion model whose state is a module variable of a derived type (it
! carries derivatives: the head fills it from its inputs); the mesh is another, set by the
! setup routine. Component arrays are passed to explicit-shape dummies, their sections
! to a reduction, a component is a DO bound, and structures are copied into a local
! array of them.
module rd_model
  implicit none
  integer, parameter :: nmax = 12
  type :: mesh_t
    integer :: n
    real(8) :: h
    real(8) :: area(nmax)
  end type mesh_t
  type :: species_t
    real(8) :: c(nmax)
    real(8) :: rate, diff
  end type species_t
  type :: model_t
    type(species_t) :: sp(2)
    real(8) :: time
  end type model_t
  type(mesh_t) :: mesh
  type(model_t) :: state
contains
  subroutine set_mesh()
    integer :: i
    mesh%n = 7
    mesh%h = 1.0d0 / 6
    do i = 1, nmax
      mesh%area(i) = 1.0d0 + 0.1d0 * i
    end do
  end subroutine set_mesh

  subroutine laplacian(n, c, h, out)
    integer, intent(in) :: n
    real(8), intent(in) :: c(n), h
    real(8), intent(out) :: out(n)
    integer :: i
    out(1) = 0.0d0
    out(n) = 0.0d0
    do i = 2, n - 1
      out(i) = (c(i - 1) - 2 * c(i) + c(i + 1)) / h**2
    end do
  end subroutine laplacian

  real(8) function total(sp)
    type(species_t), intent(in) :: sp
    total = sum(sp%c(1:mesh%n) * mesh%area(1:mesh%n))
  end function total

  subroutine step(dt)
    real(8), intent(in) :: dt
    real(8) :: lap(nmax)
    type(species_t) :: old(2)
    integer :: i, k
    old(1) = state%sp(1)
    old(2) = state%sp(2)
    do k = 1, 2
      call laplacian(mesh%n, old(k)%c, mesh%h, lap)
      do i = 1, mesh%n
        state%sp(k)%c(i) = old(k)%c(i) + dt * (state%sp(k)%diff * lap(i) - &
          state%sp(k)%rate * old(1)%c(i) * old(2)%c(i))
      end do
    end do
    state%time = state%time + dt
  end subroutine step

  subroutine integrate(n, c0, q, cost)
    integer, intent(in) :: n
    real(8), intent(in) :: c0(n), q(2)
    real(8), intent(out) :: cost
    integer :: it
    state%time = 0.0d0
    state%sp(1)%c(1:n) = c0
    state%sp(2)%c(1:n) = c0(n:1:-1) * 0.5d0
    state%sp(1)%rate = q(1)
    state%sp(2)%rate = 2 * q(1)
    state%sp(1)%diff = q(2)
    state%sp(2)%diff = 0.5d0 * q(2)
    do it = 1, 10
      call step(2.0d-3)
    end do
    cost = total(state%sp(1)) ** 2 + total(state%sp(2)) * state%time
  end subroutine integrate
end module rd_model
