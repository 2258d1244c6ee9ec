! adgen-test
! head: drive(y)/(u p)
! arg n: integer = 5
! arg u: real(8)[n] = uniform(-1, 1)
! arg p: real(8)[3] = uniform(0.5, 1.5)
! arg y: real(8)
!
! An ABSTRACT type whose DEFERRED binding has an abstract interface (`procedure(
! stress_iface), deferred :: stress`), extended by two concrete material laws: a binding of
! the abstract type (`energy`) calls the deferred one through its CLASS(law_t) dummy, and
! `bar` is given objects of both laws, so each call runs the procedure the dynamic type of
! the object binds (a copy of bar and of energy for each law).
module laws3
  implicit none
  type, abstract :: law_t
  contains
    procedure(stress_iface), deferred :: stress
    procedure :: energy
  end type law_t
  abstract interface
    real(8) function stress_iface(self, e)
      import :: law_t
      class(law_t), intent(in) :: self
      real(8), intent(in) :: e
    end function stress_iface
  end interface
  type, extends(law_t) :: linear_t
    real(8) :: young
  contains
    procedure :: stress => linear_stress
  end type linear_t
  type, extends(law_t) :: cubic_t
    real(8) :: a, b
  contains
    procedure :: stress => cubic_stress
  end type cubic_t
contains
  real(8) function energy(self, e)
    class(law_t), intent(in) :: self
    real(8), intent(in) :: e
    energy = 0.5d0 * e * self%stress(e)
  end function energy
  real(8) function linear_stress(self, e)
    class(linear_t), intent(in) :: self
    real(8), intent(in) :: e
    linear_stress = self%young * e
  end function linear_stress
  real(8) function cubic_stress(self, e)
    class(cubic_t), intent(in) :: self
    real(8), intent(in) :: e
    cubic_stress = self%a * e + self%b * e**3
  end function cubic_stress
  real(8) function bar(law, n, u)
    class(law_t), intent(in) :: law
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    integer :: i
    bar = 0d0
    do i = 1, n - 1
      bar = bar + law%energy(u(i + 1) - u(i)) + 0.1d0 * law%stress(u(i))
    end do
  end function bar
end module laws3

subroutine drive(n, u, p, y)
  use laws3
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), p(3)
  real(8), intent(out) :: y
  type(linear_t) :: a
  type(cubic_t) :: b
  a%young = p(1)
  b%a = p(2)
  b%b = p(3)
  y = bar(a, n, u) + bar(b, n, u)
end subroutine drive
