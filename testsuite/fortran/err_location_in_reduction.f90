! adgen-test
! head: f(y)/(x)
! expect-error: minloc is supported without DIM, or with DIM=1 of a rank-1 array
! expect-error-line: 12
!
! minloc along a dimension of a matrix inside a reduction is refused for what it is (it was
! reported as "sum of a scalar").
subroutine f(x, y)
  implicit none
  real(8), intent(in) :: x(2, 4)
  real(8), intent(out) :: y
  y = sum(x(:, 1)) * sum(minloc(x, dim=2) * 1.0d0)
end subroutine f
