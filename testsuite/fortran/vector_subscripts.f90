! adgen-test
! head: gather(g s)/(u a)
! arg n: integer = 5
! arg m: integer = 3
! arg u: real(8)[n] = uniform(0.5, 1.5)
! arg a: real(8)[n*2] = uniform(-1, 1)
! arg idx: integer[m] = {4, 1, 4}
! arg g: real(8)[m]
! arg s: real(8)
!
! Vector subscripts in expressions (the gathers of unstructured meshes): u(idx), a section
! of the index array, a matrix row picked by indices, in a reduction, a WHERE mask, and an
! assignment to the array it gathers from (through a temporary). An index may repeat: the
! adjoint adds both contributions. They were refused.
subroutine gather(n, m, u, a, idx, g, s)
  implicit none
  integer, intent(in) :: n, m, idx(m)
  real(8), intent(inout) :: u(n)
  real(8), intent(in) :: a(n, 2)
  real(8), intent(out) :: g(m), s
  real(8) :: w(n)
  g = u(idx) ** 2 + a(idx, 2) * u(idx(1))
  g(1:2) = g(1:2) + sin(u(idx(2:3)))
  s = sum(u(idx) * a(idx, 1)) + dot_product(g, u(idx))
  where (u(idx) > 0.9d0) g = g * 2.0d0
  w = u
  w(1:m) = w(idx) + 0.5d0 * w(1:m)
  s = s + sum(w)
  u(1) = u(1) * s
end subroutine gather
