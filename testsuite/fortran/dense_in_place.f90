! adgen-test
! head: dense_in_place(s)/(a b)
! arg n: integer = 5
! arg a: real(8)[n, n] = uniform(-0.3, 0.3)
! arg b: real(8)[n, n] = uniform(-1, 1)
! arg s: real(8)
!
! Dense kernels in place whose innermost loop adds into one element: a triangular product
! b(i, j) += a(k, i) * b(k, j) over k > i, and a Cholesky factorisation column by column
! (the sum into c(i, j) over k < j). No backward iteration reads that element, so the
! adjoint pushes it once per loop instead of once per iteration. A relaxation whose k runs
! over every row, i included, reads it: it keeps a push per iteration.
subroutine dense_in_place(n, a, b, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n)
  real(8), intent(inout) :: b(n, n)
  real(8), intent(out) :: s
  real(8) :: c(n, n)
  integer :: i, j, k
  do j = 1, n
    do i = 1, n
      do k = i + 1, n
        b(i, j) = b(i, j) + a(k, i) * b(k, j)
      end do
    end do
  end do
  do j = 1, n
    do i = 1, n
      c(i, j) = 0.5d0 * (a(i, j) + a(j, i))
    end do
    c(j, j) = c(j, j) + 2d0
  end do
  do j = 1, n
    do k = 1, j - 1
      c(j, j) = c(j, j) - c(j, k)**2
    end do
    c(j, j) = sqrt(c(j, j))
    do i = j + 1, n
      do k = 1, j - 1
        c(i, j) = c(i, j) - c(i, k) * c(j, k)
      end do
      c(i, j) = c(i, j) / c(j, j)
    end do
  end do
  do i = 1, n
    do k = 1, n
      b(i, 1) = 0.5d0 * b(i, 1) + 0.1d0 * b(k, 1) * b(k, 1)
    end do
  end do
  s = 0d0
  do j = 1, n
    do i = j, n
      s = s + sin(b(i, j)) * b(i, j) + c(i, j)**2
    end do
  end do
end subroutine
