! adgen-test
! head: drive(y)/(u p)
! arg n: integer = 5
! arg u: real(8)[n] = uniform(-1, 1)
! arg p: real(8)[3] = uniform(0.5, 1.5)
! arg y: real(8)
!
! SELECT TYPE with an associate name (`select type (m => mat)`) on a CLASS dummy, with
! TYPE IS, CLASS IS and CLASS DEFAULT guards: the associate name is the selector, of the
! type of the object given (three levels of a heat conductivity law), read and assigned
! through its components and its bindings, in a loop.
module heat1
  implicit none
  type :: material_t
    real(8) :: kappa
  contains
    procedure :: conductivity
  end type material_t
  type, extends(material_t) :: nonlinear_t
    real(8) :: beta
  contains
    procedure :: conductivity => nonlinear_conductivity
  end type nonlinear_t
  type, extends(nonlinear_t) :: clipped_t
    real(8) :: cap = 3d0
  end type clipped_t
contains
  real(8) function conductivity(self, u)
    class(material_t), intent(in) :: self
    real(8), intent(in) :: u
    conductivity = self%kappa
  end function conductivity
  real(8) function nonlinear_conductivity(self, u)
    class(nonlinear_t), intent(in) :: self
    real(8), intent(in) :: u
    nonlinear_conductivity = self%kappa * (1d0 + self%beta * u**2)
  end function nonlinear_conductivity
  subroutine tune(mat, f)
    class(material_t), intent(inout) :: mat
    real(8), intent(in) :: f
    select type (m => mat)
    type is (nonlinear_t)
      m%beta = m%beta * f
      m%kappa = m%kappa + m%conductivity(f)
    class is (nonlinear_t)
      m%beta = m%beta + f * m%kappa
    class default
      m%kappa = m%kappa * f
    end select
  end subroutine tune
  real(8) function flux(mat, n, u)
    class(material_t), intent(in) :: mat
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    integer :: i
    real(8) :: k
    flux = 0d0
    do i = 1, n - 1
      k = mat%conductivity(0.5d0 * (u(i) + u(i + 1)))
      select type (p => mat)
      class is (nonlinear_t)
        k = k + p%beta * p%conductivity(u(i))
      end select
      flux = flux + k * (u(i + 1) - u(i))**2
    end do
  end function flux
end module heat1

subroutine drive(n, u, p, y)
  use heat1
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n), p(3)
  real(8), intent(out) :: y
  type(material_t) :: a
  type(nonlinear_t) :: b
  type(clipped_t) :: c
  a%kappa = p(1)
  b%kappa = p(2)
  b%beta = p(3)
  c%kappa = p(3)
  c%beta = p(1) * p(2)
  call tune(a, p(2))
  call tune(b, p(3))
  call tune(c, p(1))
  y = flux(a, n, u) + flux(b, n, u) + flux(c, n, u)
end subroutine drive
