! adgen-test
! head: bounded_energy(e d)/(c w)
! arg c: real(8)[0:6] = uniform(-1, 1)
! arg w: real(8)[-1:1, 4] = uniform(0.5, 1.5)
! arg d: real(8)[2:7]
! arg e: real(8)
!
! A head with assumed-shape dummies whose lower bounds are not 1 (c(0:), w(-1:, :),
! d(2:)): the lower bounds matter inside the routine only, callers pass the extents.
! Loops over lbound .. ubound with and without DIM, indexing relative to the lower bound,
! sections of them in dot_product, and an intent(out) dependent with its own lower bound.
subroutine bounded_energy(c, w, d, e)
  implicit none
  real(8), intent(in) :: c(0:), w(-1:, :)
  real(8), intent(out) :: d(2:), e
  integer :: i, k, hi(2)
  do i = lbound(d, 1), ubound(d, 1)
    d(i) = c(i - 1) - c(i - 2) * c(i - 1)
  end do
  hi = ubound(w)
  e = c(0) * d(ubound(d, 1))
  do i = lbound(w, 2), hi(2)
    e = e + dot_product(w(:, i), c(i - 1:i + 1))**2 / size(w, 1)
    k = lbound(w, 1) + mod(i, 3)
    e = e + w(k, i) * d(i + 1)
  end do
end subroutine bounded_energy
