! adgen-test
! head: apply(y)/(x)
! arg x: real(8)[3] = uniform(-1, 1)
! arg y: real(8)[3]
!
! PARAMETER arrays given by reshape of an array constructor (in a module and in the
! procedure, column-major as Fortran stores them), by one value for every element, and a
! SAVEd table initialised the same way. reshape in a PARAMETER's value was refused.
module tables_m
  implicit none
  real(8), parameter :: rot(3, 3) = reshape([0.0d0, 1.0d0, 0.0d0, &
                                             -1.0d0, 0.0d0, 0.0d0, &
                                             0.0d0, 0.0d0, 1.0d0], [3, 3])
end module tables_m

subroutine apply(x, y)
  use tables_m
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y(3)
  real(8), parameter :: w(2, 3) = reshape([1.0d0, 2.0d0, 3.0d0, 4.0d0, 5.0d0, 6.0d0], &
                                          shape=[2, 3])
  real(8), parameter :: half(3) = 0.5d0
  real(8), save :: bias(3, 1) = reshape([0.1d0, 0.2d0, 0.3d0], [3, 1])
  integer :: i
  do i = 1, 3
    y(i) = sum(rot(i, :) * x) + half(i) * x(i) ** 2 + bias(i, 1)
  end do
  y(1) = y(1) + w(2, 3) * x(2) - w(1, 2) * x(3)
end subroutine apply
