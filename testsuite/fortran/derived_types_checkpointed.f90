! adgen-test
! head: relax_chain(energy)/(stiff x0)
! arg n: integer = 9
! arg nsteps: integer = 23
! arg stiff: real(8)[n] = uniform(0.5, 1.5)
! arg x0: real(8)[n] = uniform(-0.5, 0.5)
! arg energy: real(8)
!
! Derived types in the state of Tapenade's directives: a chain of masses kept in a local
! structure (positions, velocities, elapsed time) stepped under `!$AD BINOMIAL-CKP`, then
! an equilibrium of springs found by a relaxation under `!$AD FP-LOOP` whose nodes are a
! local array of structures. The kept states are the whole structures.
module chain_types
  implicit none
  integer, parameter :: nmax = 16
  type :: chain_state
    real(8) :: x(nmax), v(nmax)
    real(8) :: time
  end type chain_state
  type :: spring_node
    real(8) :: pos, load
  end type spring_node
end module chain_types

subroutine relax_chain(n, nsteps, stiff, x0, energy)
  use chain_types
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: stiff(n), x0(n)
  real(8), intent(out) :: energy
  type(chain_state) :: s
  type(spring_node) :: nodes(nmax)
  real(8) :: dt, change, p
  integer :: t, i, it
  dt = 0.05d0
  s%x(1:n) = x0
  s%v = 0.0d0
  s%time = 0.0d0
  !$AD BINOMIAL-CKP nsteps 3 1
  do t = 1, nsteps
    do i = 2, n - 1
      s%v(i) = s%v(i) + dt * stiff(i) * (s%x(i - 1) - 2.0d0 * s%x(i) + s%x(i + 1)) &
               - dt * 0.1d0 * sin(s%x(i))
    end do
    s%x(2:n - 1) = s%x(2:n - 1) + dt * s%v(2:n - 1)
    s%time = s%time + dt * (1.0d0 + 0.1d0 * s%x(n / 2))
  end do
  do i = 1, n
    nodes(i)%pos = 0.0d0
    nodes(i)%load = 0.2d0 * s%x(i)
  end do
  change = 1.0d0
  it = 0
  !$AD FP-LOOP nodes
  do while (change > 1.0d-14 .and. it < 500)
    change = 0.0d0
    do i = 2, n - 1
      p = (stiff(i) * (nodes(i - 1)%pos + nodes(i + 1)%pos) + nodes(i)%load) / &
          (2.0d0 * stiff(i) + 1.0d0)
      change = max(change, abs(p - nodes(i)%pos))
      nodes(i)%pos = p
    end do
    it = it + 1
  end do
  energy = sum(s%v(1:n)**2) + s%time
  do i = 1, n
    energy = energy + nodes(i)%pos**2
  end do
end subroutine
