! adgen-test
! head: g(y)/(x z)
! arg n: integer = 4
! arg z: real(8)[n, n] = uniform(-1, 1)
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! Fuzz seed 11314755, reduced: an array expression of a matmul product (`0.4d0 *
! matmul(transpose(z), x) ** 2`) passed to a generic interface, in a SELECT CASE
! selector and an IF test. Choosing the specific procedure lowered the argument as a
! scalar to learn its type, which met the matmul where no temporary holds it ("matmul is
! supported in assignments, ..."); the argument now has the product's rank.
module generic_products
  implicit none
  interface total
    module procedure total_of
  end interface total
contains
  real(8) function total_of(m, v)
    integer, intent(in) :: m
    real(8), intent(in) :: v(m)
    total_of = sum(v)
  end function total_of

  subroutine g(n, z, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: z(n, n), x(n)
    real(8), intent(out) :: y
    y = sum(x * x) + sum(z)
    select case (int(2d0 + tanh(total(n, 0.4d0 * matmul(transpose(z), x) ** 2))))
    case (2)
      y = y * sum(x)
    case default
      y = y + sum(z * z)
    end select
    if (total(n, 0.4d0 * matmul(transpose(z), x) ** 2) > 0.1d0) y = y * 2d0
  end subroutine g
end module generic_products
