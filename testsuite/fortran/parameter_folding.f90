! adgen-test
! head: run(cost)/(u0 c)
! arg u0: real(8)[9] = uniform(0.2, 0.8)
! arg c: real(8) = 0.99
! arg cost: real(8)
!
! Integer PARAMETERs computed from real ones (`nt = int(tend / dt)`, with `dt` a default
! real) are the constants gfortran folds them to (59 here): a module array dimensioned by
! them is a fixed-size C array, the time loop bounded by nt is counted (its trip count
! not stored) and takes a BINOMIAL-CKP directive.
module param_grid
  implicit none
  real(8), parameter :: tend = 5.0d0
  real, parameter :: dt = 1.0 / 12.0
  integer, parameter :: nt = int(tend / dt)
  integer, parameter :: nx = 2 * 4 + 1, half = nx / 2, rest = mod(-nx, 4)
  real(8) :: h(nx, 0:nt)
contains
  subroutine run(u0, c, cost)
    real(8), intent(in) :: u0(nx), c
    real(8), intent(out) :: cost
    integer :: i, k
    h(:, 0) = u0
    !$AD BINOMIAL-CKP nt 6 1
    do k = 1, nt
      do i = 1, nx
        h(i, k) = h(i, k - 1) * c + sin(h(i, k - 1)) * 0.01d0
      end do
    end do
    cost = sum(h(:, nt)**2) + h(half, nt) * (rest + 2)
  end subroutine run
end module param_grid
