! adgen-test
! head: energy(e)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(-1, 1)
! arg e: real(8)
!
! Particles in an allocatable array of a derived type, kicked by a FORALL whose
! assignment reads other components of the element it assigns (`ps(i)%vel = ps(i)%vel -
! dt * ps(i)%pos * ps(i)%mass`: no other element's storage), then drifted by a DO loop; the
! largest entry of a matrix picked by maxloc; an internal WRITE (left out); WHERE with
! ELSEWHERE branches.
module particles
  implicit none
  type :: particle_t
    real(8) :: pos
    real(8) :: vel
    real(8) :: mass
  end type
contains
  subroutine kick(np, ps, dt)
    integer, intent(in) :: np
    type(particle_t), intent(inout) :: ps(:)
    real(8), intent(in) :: dt
    integer :: i
    forall (i = 1:np) ps(i)%vel = ps(i)%vel - dt * ps(i)%pos * ps(i)%mass
    do i = 1, np
      ps(i)%pos = ps(i)%pos + dt * ps(i)%vel
    end do
  end subroutine
end module
subroutine energy(n, x, e)
  use particles
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: e
  type(particle_t), allocatable :: ps(:)
  real(8) :: m(2, 3)
  integer :: i, loc(2)
  character(len=32) :: line
  allocate(ps(n))
  do i = 1, n
    ps(i)%pos = x(i)
    ps(i)%vel = 0
    ps(i)%mass = 1 + 0.1d0 * i
  end do
  do i = 1, 3
    call kick(n, ps, 0.1d0)
  end do
  e = 0
  do i = 1, n
    e = e + 0.5d0 * ps(i)%mass * ps(i)%vel**2 + 0.5d0 * ps(i)%pos**2
  end do
  m = reshape([x(1), x(2), x(3), x(4), x(1)*x(2), 0d0], [2, 3])
  loc = maxloc(m)
  e = e + m(loc(1), loc(2))
  write(line, '(a,f8.3)') 'energy ', e
  where (m > 0)
    m = m * 2
  elsewhere (m < -0.5d0)
    m = -m
  elsewhere
    m = 0
  end where
  e = e + sum(m)
end subroutine
