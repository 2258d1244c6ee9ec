! adgen-test
! head: field_energy(e)/(p)
! arg nx: integer = 3
! arg ny: integer = 4
! arg p: real(8)[nx*ny] = uniform(-1, 1)
! arg e: real(8)
!
! reshape: a parameter vector unpacked into a 2-D field (the shape as a constructor, and as
! an integer array), a field packed back into a vector, a reshape of an expression, and a
! matrix reshaped to another shape.
subroutine field_energy(nx, ny, p, e)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: p(nx * ny)
  real(8), intent(out) :: e
  real(8) :: u(nx, ny), v(nx * ny), w(ny, nx), t(2, nx * ny / 2)
  integer :: dims(2)
  u = reshape(p, [nx, ny])
  u(:, 2:ny) = u(:, 2:ny) * u(:, 1:ny - 1)
  v = reshape(sin(u), [nx * ny])
  dims = [ny, nx]
  w = reshape(u, dims) + 0.5d0 * reshape(v, dims)
  t = reshape(w ** 2, [2, nx * ny / 2])
  e = sum(v * p) + sum(w(1, :) * u(:, 1)) + sum(t(2, :))
end subroutine field_energy
