! adgen-test
! head: model(out)/(p)
! arg n: integer = 5
! arg p: real(8)[3] = uniform(0.2, 0.8)
! arg out: real(8)
! adgen-flags: --rules rules/fsolve.rules
!
! Derivative rules for Fortran (docs/rules.md): a lower-triangular solve whose adjoint is a
! transposed solve, and an in-place update, both with hand-written derivative routines
! (external subroutines below, in Tapenade's argument order) that adgen calls instead of
! differentiating through them (written for this project).

! x = a^{-1} b, a lower triangular (column-major a(i, j))
subroutine lsolve(n, a, b, x)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), b(n)
  real(8), intent(out) :: x(n)
  integer :: i
  do i = 1, n
    x(i) = (b(i) - dot_product(a(i, 1:i-1), x(1:i-1))) / a(i, i)
  end do
end subroutine lsolve

! xd = a^{-1} (bd - ad x)
subroutine lsolve_d(n, a, ad, b, bd, x, xd)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), ad(n, n), b(n), bd(n)
  real(8), intent(out) :: x(n), xd(n)
  call lsolve(n, a, b, x)
  call lsolve(n, a, bd - matmul(ad, x), xd)
end subroutine lsolve_d

! bb = a^{-T} xb, ab = -bb x^T (lower triangle), xb consumed
subroutine lsolve_b(n, a, ab, b, bb, x, xb)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), b(n)
  real(8), intent(inout) :: ab(n, n), bb(n), x(n), xb(n)
  real(8) :: w(n)
  integer :: i, j
  call lsolve(n, a, b, x)
  do i = n, 1, -1
    w(i) = (xb(i) - dot_product(a(i+1:n, i), w(i+1:n))) / a(i, i)
  end do
  bb = bb + w
  do j = 1, n
    do i = j, n
      ab(i, j) = ab(i, j) - w(i) * x(j)
    end do
  end do
  xb = 0.0d0
end subroutine lsolve_b

! y = y + 0.1 sin(y), in place
subroutine damp(n, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: y(n)
  y = y + 0.1d0 * sin(y)
end subroutine damp

subroutine damp_d(n, y, yd)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: y(n), yd(n)
  yd = yd * (1.0d0 + 0.1d0 * cos(y))
  y = y + 0.1d0 * sin(y)
end subroutine damp_d

! called with y as it was before damp: yb = J^T yb, and y left as damp leaves it
subroutine damp_b(n, y, yb)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: y(n), yb(n)
  yb = yb * (1.0d0 + 0.1d0 * cos(y))
  y = y + 0.1d0 * sin(y)
end subroutine damp_b

subroutine model(n, p, out)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: p(3)
  real(8), intent(out) :: out
  real(8) :: a(n, n), b(n), x(n), x2(n)
  integer :: i, j
  a = 0.0d0
  do j = 1, n
    do i = j, n
      a(i, j) = 0.3d0 * p(1) * sin(dble(i + 2 * j))
    end do
    a(j, j) = 2.0d0 + p(2) * j
  end do
  do i = 1, n
    b(i) = cos(p(3) * i) + p(1)
  end do
  call lsolve(n, a, b, x)
  call damp(n, x)
  call lsolve(n, a, x, x2)
  out = sum(x2**2) + p(3) * x2(1)
end subroutine model
