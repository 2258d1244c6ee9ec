! adgen-test
! head: heat(cost)/(k u0)
! arg n: integer = 8
! arg k: real(8)[n] = uniform(0.5, 1.5)
! arg u0: real(8)[n] = uniform(0, 1)
! arg cost: real(8)
!
! A diffusion time stepper run to a steady state (DO WHILE) on allocatable work arrays,
! with a WHERE whose mask is an expression of them (its temporary on the heap) and array
! sections; freed at the end of the procedure.
module grid
  implicit none
  integer, parameter :: dp = kind(1.d0)
  real(dp), parameter :: dt = 0.01_dp
end module grid

subroutine heat(n, k, u0, cost)
  use grid
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: k(n), u0(n)
  real(dp), intent(out) :: cost
  real(dp), allocatable :: u(:), flux(:), work(:)
  real(dp) :: res
  integer :: it, i
  allocate(u(n), flux(n+1), work(n))
  u = u0
  it = 0
  res = 1.0_dp
  do while (res > 1e-3_dp .and. it < 40)
    flux(1) = 0.0_dp
    flux(n+1) = 0.0_dp
    do i = 2, n
      flux(i) = 0.5_dp * (k(i) + k(i-1)) * (u(i) - u(i-1))
    end do
    work = dt * (flux(2:n+1) - flux(1:n))
    where (u + work > 1.0_dp)
      work = 0.5_dp * work
    elsewhere
      work = work + 0.001_dp * u
    end where
    u = u + work
    res = maxval(abs(work))
    it = it + 1
  end do
  cost = sum(u**2) + 0.1_dp * it
end subroutine heat
