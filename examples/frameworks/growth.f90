! Logistic growth y(t) = K / (1 + (K / y0 - 1) exp(-r t)) at the times t(1:n): the
! example of a Fortran model inside a jitted JAX loss (docs/python-api.md, "JAX").
subroutine growth(n, r, capacity, y0, t, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: r, capacity, y0
  real(8), intent(in) :: t(n)
  real(8), intent(out) :: y(n)
  integer :: i
  do i = 1, n
    y(i) = capacity / (1.0d0 + (capacity / y0 - 1.0d0) * exp(-r * t(i)))
  end do
end subroutine growth
