! adgen-test
! head: masked(cost)/(x a)
! arg x: real(8)[4] = uniform(0.1, 1)
! arg a: real(8)[4, 4] = uniform(-1, 1)
! arg cost: real(8)
!
! matmul and pack under WHERE: evaluated whole, as Fortran evaluates a transformational
! function there, and assigned only where the mask holds (ELSEWHERE keeps the other
! elements); matmul as the whole right-hand side, inside an expression, and pack; both in
! a mask too.
subroutine masked(x, a, cost)
  implicit none
  real(8), intent(in) :: x(4), a(4, 4)
  real(8), intent(out) :: cost
  real(8) :: z(4), u(4), v(4)
  z = x * 3.0d0
  where (x > 0.5d0) z = matmul(a, x)
  u = 2.0d0
  where (z > 0.0d0)
    u = matmul(a, z) * z + 1.0d0
  elsewhere
    u = sin(z)
  end where
  v = 0.5d0
  cost = sum(z * z) + sum(u * x) + sum(v * z)
  where (x < 0.6d0) v = cos(pack(x * u, .true.)) + matmul(transpose(a), u)
  where (matmul(a, x) > 0.0d0 .and. pack(u, .true.) > 0.5d0) v = v * x
  cost = cost + sum(v * x)
end subroutine masked
