! adgen-test
! head: row_products(f)/(a x)
! arg m: integer = 4
! arg a: real(8)[m, 3] = uniform(-1, 1)
! arg x: real(8)[m] = uniform(0.2, 1.2)
! arg f: real(8)
!
! matmul of a vector and a matrix, the vector taken as a row (the result has the
! matrix's columns): a whole right-hand side, inside an expression, of a section, with a
! transposed matrix, nested, into an allocatable array and in an IF condition; the
! matrices are not square, so a product taken along the wrong dimension cannot pass.
! Before: "matmul is supported for matrix x matrix and matrix x vector". Also a matrix
! times a vector into an unallocated allocatable array, which Fortran allocates to the
! product's shape (before, it was left unallocated: the program crashed).
subroutine row_products(m, a, x, f)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: a(m, 3), x(m)
  real(8), intent(out) :: f
  real(8) :: y(3), z(m), c(3, 2)
  real(8), allocatable :: r(:), s(:)
  integer :: i, j
  do j = 1, 2
    do i = 1, 3
      c(i, j) = 0.3d0 * i - 0.2d0 * j
    end do
  end do
  y = matmul(x, a)
  f = sum(y ** 2)
  f = f + sum(matmul(x * x, a) * y)
  f = f + sum(matmul(x(2:3), a(1:2, :)) * [1d0, 2d0, 3d0])
  z = matmul(y, transpose(a))
  f = f + dot_product(z, x)
  f = f + sum(matmul(matmul(x, a), c))
  r = matmul(sin(x), a)
  f = f + sum(r) * r(3)
  s = matmul(a, y)
  f = f + sum(s * x)
  if (maxval(matmul(x, a)) > 0d0) f = f * 1.5d0
end subroutine row_products
