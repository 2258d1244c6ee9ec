! adgen-test
! head: products(cost)/(x c)
! arg n: integer = 5
! arg nc: integer = 3
! arg x: real(8)[n] = uniform(0.1, 1)
! arg c: real(8)[n, nc] = uniform(-1, 1)
! arg cost: real(8)
!
! Temporaries of the shape of an allocatable array, known once it is allocated, go on the
! heap for the statement: matmul of allocatable arrays inside expressions, also as the
! argument of a function returning an array (whose result then has that shape too), and a
! function returning an array of the shape of its allocatable actual argument.
module scaling
  implicit none
contains
  function soft(m, u) result(o)
    integer, intent(in) :: m
    real(8), intent(in) :: u(m)
    real(8) :: o(m)
    o = (1.0d0 + u ** 2) ** 0.5d0
  end function soft
  function twice(u) result(o)
    real(8), intent(in) :: u(:)
    real(8) :: o(size(u))
    o = 2.0d0 * u + sin(u)
  end function twice
end module scaling

subroutine products(n, nc, x, c, cost)
  use scaling
  implicit none
  integer, intent(in) :: n, nc
  real(8), intent(in) :: x(n), c(n, nc)
  real(8), intent(out) :: cost
  real(8), allocatable :: q(:, :), w(:)
  real(8) :: z(nc)
  integer :: k
  allocate(q(n, nc))
  q = c * 2.0d0 + 0.5d0
  z = soft(nc, 0.2d0 * matmul(transpose(q), x))
  w = matmul(q, z) * x + sin(x)
  do k = 1, 2
    z = z + matmul(transpose(q), w) * 0.1d0
    q(k, :) = q(k, :) * z
  end do
  cost = sum(z ** 2) + sum(matmul(q, z) * w) + sum(twice(w) * x) + sum(twice(twice(w(2:n))))
end subroutine products
