! adgen-test
! head: smooth_field(energy)/(x0 kappa)
! arg n: integer = 7
! arg x0: real(8)[n] = uniform(-1, 1)
! arg kappa: real(8) = 0.4
! arg energy: real(8)
!
! Allocatable dummy arguments: the caller allocates the arrays (one with lower bound 0, a
! 2-D one) and the procedures use them as they find them, with the bounds they were
! allocated with (lbound, ubound, size, loops over them), pass them on to another
! allocatable dummy and to an explicit-shape one.
module field_ops
  implicit none
contains
  subroutine diffuse(u, kappa)
    real(8), allocatable, intent(inout) :: u(:)
    real(8), intent(in) :: kappa
    real(8) :: old(size(u))
    integer :: i
    old = u
    do i = lbound(u, 1) + 1, ubound(u, 1) - 1
      u(i) = old(i - lbound(u, 1) + 1) + kappa * (old(i - lbound(u, 1)) &
             - 2.0d0 * old(i - lbound(u, 1) + 1) + old(i - lbound(u, 1) + 2)) - 0.05d0 * sin(u(i))
    end do
  end subroutine diffuse

  subroutine twice(u, kappa)
    real(8), allocatable, intent(inout) :: u(:)
    real(8), intent(in) :: kappa
    call diffuse(u, kappa)
    call diffuse(u, 0.5d0 * kappa)
  end subroutine twice

  subroutine outer_product(u, m)
    real(8), allocatable, intent(in) :: u(:)
    real(8), allocatable, intent(inout) :: m(:, :)
    integer :: i, j
    do j = lbound(m, 2), ubound(m, 2)
      do i = lbound(m, 1), ubound(m, 1)
        m(i, j) = u(lbound(u, 1) + i - lbound(m, 1)) * tanh(u(lbound(u, 1) + j - lbound(m, 2)))
      end do
    end do
  end subroutine outer_product

  real(8) function total(n, v)
    integer, intent(in) :: n
    real(8), intent(in) :: v(n)
    total = sum(v**2)
  end function total
end module field_ops

subroutine smooth_field(n, x0, kappa, energy)
  use field_ops
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x0(n), kappa
  real(8), intent(out) :: energy
  real(8), allocatable :: u(:), m(:, :)
  allocate(u(0:n - 1), m(-1:1, 2:3))
  u = x0
  call twice(u, kappa)
  call outer_product(u, m)
  energy = total(n, u) + sum(m * m)
  deallocate(u, m)
end subroutine smooth_field
