! adgen-test
! head: chain_energy(e)/(x stiffness)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg stiffness: real(8) = 2.0
! arg e: real(8)
!
! Type-bound procedures: specific bindings (`procedure :: energy => spring_energy`,
! `procedure :: relax`), PASS(arg) naming another dummy than the first, NOPASS; functions
! and subroutines called through an object, an element of an array of structures and a
! component (`c%springs(i)%energy(d)`), in expressions, IF conditions and DO bounds, nested
! in each other's arguments; a bound procedure calling another binding of its CLASS(t)
! dummy; a caller that imports the type only (`use springs, only: spring_t`).
module springs
  implicit none
  type :: spring_t
    real(8) :: k = 1d0
    real(8) :: rest = 1d0
  contains
    procedure :: energy => spring_energy
    procedure :: force
    procedure :: relax
    procedure, pass(s) :: scaled_stiffness
    procedure, nopass :: nominal_rest
  end type spring_t
  type :: chain_t
    type(spring_t) :: springs(4)
    integer :: active = 3
  contains
    procedure :: total => chain_total
    procedure :: count_active
  end type chain_t
contains
  real(8) function spring_energy(self, d)
    class(spring_t), intent(in) :: self
    real(8), intent(in) :: d
    spring_energy = 0.5d0 * self%k * (d - self%rest)**2
  end function spring_energy

  real(8) function force(self, d)
    class(spring_t), intent(in) :: self
    real(8), intent(in) :: d
    force = -self%k * (d - self%rest)
  end function force

  subroutine relax(self, d, rate)
    class(spring_t), intent(inout) :: self
    real(8), intent(in) :: d, rate
    self%rest = self%rest + rate * self%force(d) / self%k
  end subroutine relax

  real(8) function scaled_stiffness(c, s)
    real(8), intent(in) :: c
    class(spring_t), intent(in) :: s
    scaled_stiffness = c * s%k
  end function scaled_stiffness

  real(8) function nominal_rest()
    nominal_rest = 1d0
  end function nominal_rest

  integer function count_active(self)
    class(chain_t), intent(in) :: self
    count_active = self%active
  end function count_active

  real(8) function chain_total(self, x)
    class(chain_t), intent(in) :: self
    real(8), intent(in) :: x(:)
    integer :: i
    chain_total = 0d0
    do i = 1, self%count_active()
      chain_total = chain_total + self%springs(i)%energy(x(i + 1) - x(i))
    end do
  end function chain_total
end module springs

module chain_model
  use springs, only: spring_t, chain_t
  implicit none
contains
  subroutine chain_energy(n, x, stiffness, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), stiffness
    real(8), intent(out) :: e
    type(chain_t) :: c
    type(spring_t) :: s
    integer :: i
    do i = 1, size(c%springs)
      c%springs(i)%k = stiffness * i
      c%springs(i)%rest = c%springs(i)%nominal_rest() * 0.9d0
    end do
    s%k = stiffness
    call s%relax(x(2) - x(1), 0.1d0)
    call c%springs(2)%relax(s%energy(x(3)), 0.05d0)
    e = c%total(x) + s%scaled_stiffness(x(4))
    if (s%force(x(1)) > c%springs(1)%force(x(1))) e = e + s%energy(x(1))
    do i = 1, c%count_active() - 1
      e = e + c%springs(i + 1)%energy(c%springs(i)%energy(x(i)))
    end do
  end subroutine chain_energy
end module chain_model
