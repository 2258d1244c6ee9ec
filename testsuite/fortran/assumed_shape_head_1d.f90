! adgen-test
! head: smooth_norm(y e)/(x)
! arg x: real(8)[7] = uniform(0.5, 1.5)
! arg w: real(8)[7] = uniform(0.1, 1.0)
! arg y: real(8)[7]
! arg e: real(8)
! head: weighted_sum(weighted_sum)/(x w)
! arg x: real(8)[5] = uniform(-1, 1)
! arg w: real(8)[5] = uniform(0.1, 1.0)
!
! Heads whose dummies are assumed-shape (x(:)): the derivative routines take the arrays
! with their extents last; the Fortran main program calls them through the interface
! module adgen writes (module procedures with the same assumed-shape dummies). An
! external subroutine with an intent(out) assumed-shape dependent and size(x), and an
! external function whose result is the dependent.
subroutine smooth_norm(x, w, y, e)
  implicit none
  real(8), intent(in) :: x(:), w(:)
  real(8), intent(out) :: y(:), e
  integer :: i
  y(1) = x(1)
  do i = 2, size(x)
    y(i) = 0.5d0 * (x(i) + x(i-1)) * w(i)
  end do
  e = sqrt(sum(y**2) / size(y))
end subroutine smooth_norm

real(8) function weighted_sum(x, w)
  implicit none
  real(8), intent(in) :: x(:), w(:)
  weighted_sum = sum(w * exp(x)) / sum(w)
end function weighted_sum
