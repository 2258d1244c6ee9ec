! adgen-test
! head: relax(f)/(a x s)
! arg m: integer = 4
! arg a: real(8)[m, 3] = uniform(0.5, 1.5)
! arg x: real(8)[m] = [0.3d0, -0.5d0, 1.2d0, 0.7d0]
! arg s: real(8) = 0.8d0
! arg f: real(8)
!
! ASSOCIATE names for a scalar, an element picked by an index that changes inside, a
! column and a block of columns of a matrix, the whole vector (shifted into itself, reading ahead) and a
! value; BLOCK variables that hide outer ones, nested, and an allocatable one per
! iteration of a loop.
subroutine scale_col(n, c, w)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: c(n)
  real(8), intent(in) :: w
  c = c * w + sin(c)
end subroutine scale_col

subroutine relax(m, a, x, s, f)
  implicit none
  integer, intent(in) :: m
  real(8), intent(inout) :: a(m, 3), x(m), s
  real(8), intent(out) :: f
  integer :: i, j
  real(8) :: tmp
  tmp = 0.5d0
  i = 2
  associate (g => s, e => x(i), c => a(:, 2), b => a(:, 2:3), w => x, h => s * tmp + 1d0)
    g = g * h
    i = 3
    e = e * x(i) + g
    call scale_col(m, c, h)
    b(2, 2) = b(2, 2) + c(1) * b(1, 1)
    w(1:m-1) = x(2:m) * h
    x(1) = w(2) * e
  end associate
  f = 0d0
  do j = 1, 2
    block
      real(8) :: tmp
      real(8), allocatable :: col(:)
      allocate(col(m))
      col = a(:, j) * x
      tmp = sum(col)
      block
        real(8) :: tmp2(2)
        tmp2(1) = tmp * tmp
        tmp2(2) = cos(tmp)
        f = f + tmp2(1) + tmp2(2)
      end block
      a(1, j) = tmp
    end block
  end do
  f = f + tmp * s + a(1, 1) + a(1, 2) * a(m, 3)
end subroutine relax
