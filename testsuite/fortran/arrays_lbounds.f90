! adgen-test
! head: stencil(w)/(a b)
! arg n: integer = 4
! arg a: real(8)[0:n] = uniform(0.5, 1.5)
! arg b: real(8)[-1:1, n] = uniform(-1, 1)
! arg w: real(8)[n]
!
! Arrays with lower bounds other than 1 (a(0:n), b(-1:1, n)), column-major indexing
! of a 2-D array, assumed-size dummies (c(*), d(n, *)) in a helper.
subroutine stencil(n, a, b, w)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(0:n), b(-1:1, n)
  real(8), intent(out) :: w(n)
  integer :: i, k
  do i = 1, n
    w(i) = 0.0d0
    do k = -1, 1
      w(i) = w(i) + b(k, i) * a(max(0, min(n, i + k)))
    end do
  end do
  call scale_rows(n, w, b)
end subroutine stencil

subroutine scale_rows(n, c, d)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: c(*)
  real(8), intent(in) :: d(3, *)
  integer :: i
  do i = 1, n
    c(i) = c(i) * (1.0d0 + d(2, i)**2)
  end do
end subroutine scale_rows
