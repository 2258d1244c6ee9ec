! adgen-test
! head: heat_steps(u)/(u kappa)
! arg m: integer = 5
! arg n: integer = 4
! arg nsteps: integer = 3
! arg u: real(8)[m, n] = uniform(0, 1)
! arg kappa: real(8)[m, n] = uniform(0.5, 1.5)
! arg dt: real(8) = 0.05
!
! Explicit time steps of a 2-D heat equation with a variable conductivity: module
! procedures with rank-2 assumed-shape dummies (u(:,:)) use size(u, 1), size(u, 2) and
! shape(u) for their loop bounds, array sections over the interior, and pass columns
! u(:, j) (contiguous) to a rank-1 assumed-shape kernel; the caller passes whole
! explicit-shape arrays and a section of a column block, u(:, 2:n-1).
module heat_2d
  implicit none
contains
  subroutine laplacian(u, kappa, lap)
    real(8), intent(in) :: u(:, :), kappa(:, :)
    real(8), intent(out) :: lap(:, :)
    integer :: i, j, m, n
    m = size(u, 1)
    n = size(u, 2)
    lap = 0.0d0
    do j = 2, n - 1
      do i = 2, m - 1
        lap(i, j) = kappa(i, j) * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) &
                                   - 4.0d0 * u(i, j))
      end do
    end do
  end subroutine laplacian

  subroutine damp_column(col, factor)
    real(8), intent(inout) :: col(:)
    real(8), intent(in) :: factor
    col(2:size(col) - 1) = col(2:size(col) - 1) / (1.0d0 + factor * col(2:size(col) - 1)**2)
  end subroutine damp_column

  subroutine smooth_block(b)
    real(8), intent(inout) :: b(:, :)
    integer :: dims(2), j, m
    dims = shape(b)
    m = size(b, 1)
    do j = 1, dims(2)
      b(2:size(b, 1)-1, j) = 0.5d0 * b(2:m-1, j) + 0.25d0 * (b(1:m-2, j) + b(3:dims(1), j))
    end do
  end subroutine smooth_block
end module heat_2d

subroutine heat_steps(m, n, nsteps, u, kappa, dt)
  use heat_2d
  implicit none
  integer, intent(in) :: m, n, nsteps
  real(8), intent(inout) :: u(m, n)
  real(8), intent(in) :: kappa(m, n), dt
  real(8) :: lap(m, n)
  integer :: step, j
  do step = 1, nsteps
    call laplacian(u, kappa, lap)
    u = u + dt * lap
    do j = 1, n
      call damp_column(u(:, j), 0.1d0 * dt)
    end do
  end do
  call smooth_block(u(:, 2:n-1))
end subroutine heat_steps
