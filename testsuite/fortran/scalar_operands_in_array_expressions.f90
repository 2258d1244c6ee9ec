! adgen-test
! head: f(r)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(-1, 1)
! arg r: real(8)
!
! Array expressions whose first operand is a scalar: an element x(3), a reduction over
! another section, a function of the whole array. Each takes the shape of its first array
! operand, x(1:2) or x(2:4), not that of x (which would run over all n elements); and an
! argument that is a scalar expression of elements is passed as one value, not as an array.
module helpers
  implicit none
contains
  function total(m, v) result(t)
    integer, intent(in) :: m
    real(8), intent(in) :: v(m)
    real(8) :: t
    t = sum(v * v)
  end function total

  function weighted(m, w, v) result(t)
    integer, intent(in) :: m
    real(8), intent(in) :: w
    real(8), intent(in) :: v(m)
    real(8) :: t
    t = w * sum(v)
  end function weighted
end module helpers

subroutine f(n, x, r)
  use helpers
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: r
  integer :: i
  r = sum(x(3) * x(1:2))
  r = r + sum(sum(x(1:2)) * x(2:4))
  r = r + maxval(total(n, x) + x(2:3))
  r = r + dot_product(x(1) + x(1:2), x(4:5))
  r = r + weighted(2, x(5) * x(5), x(1) * x(3:4))
  do i = 1, n
    r = r + weighted(3, 0.5d0 * sin(x(i)) ** 2, x(1:3))
  end do
end subroutine f
