! A derived type with array components, a nested type and an integer: the head
! relax(s)/(s) takes one by reference (tests/test_fortran.py, test_derived_type_head).
module grid
  implicit none
  type :: material_t
    real(8) :: kappa(6)
    real(8) :: rho
  end type material_t
  type :: state_t
    integer :: n
    real(8) :: u(6), dx
    real(8) :: coef(2, 3)
    type(material_t) :: mat
  end type state_t
contains
  subroutine relax(s, dt)
    type(state_t), intent(inout) :: s
    real(8), intent(in) :: dt
    real(8) :: old(6)
    integer :: i
    old = s%u
    do i = 2, s%n - 1
      s%u(i) = old(i) + dt / (s%mat%rho * s%dx**2) * (s%mat%kappa(i) * (old(i + 1) - &
        old(i)) - s%mat%kappa(i - 1) * (old(i) - old(i - 1)))
    end do
    s%u(1) = s%u(1) * s%coef(1, 2) + sin(s%coef(2, 3))
    s%mat%rho = s%mat%rho * sum(s%u ** 2)
  end subroutine relax

  real(8) function dot(a, b)
    type(state_t), intent(in) :: a, b
    dot = sum(a%u * b%u) + a%dx * b%dx + sum(a%coef * b%coef) + &
      sum(a%mat%kappa * b%mat%kappa) + a%mat%rho * b%mat%rho
  end function dot

  subroutine axpy(a, x, y, r)
    real(8), intent(in) :: a
    type(state_t), intent(in) :: x, y
    type(state_t), intent(out) :: r
    r = y
    r%u = y%u + a * x%u
    r%dx = y%dx + a * x%dx
    r%coef = y%coef + a * x%coef
    r%mat%kappa = y%mat%kappa + a * x%mat%kappa
    r%mat%rho = y%mat%rho + a * x%mat%rho
  end subroutine axpy

  subroutine filled(s, seed)
    type(state_t), intent(out) :: s
    real(8), intent(in) :: seed
    integer :: i
    s%n = 6
    do i = 1, 6
      s%u(i) = sin(seed * i)
      s%mat%kappa(i) = 1.0d0 + 0.5d0 * cos(seed + i)
    end do
    s%dx = 0.7d0 + 0.1d0 * seed
    s%coef = reshape([(0.3d0 * i * seed, i = 1, 6)], [2, 3])
    s%mat%rho = 1.5d0 + seed
  end subroutine filled
end module grid
