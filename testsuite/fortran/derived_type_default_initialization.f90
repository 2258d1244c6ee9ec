! adgen-test
! head: energy(energy)/(u)
! arg n: integer = 5
! arg u: real(8)[n] = uniform(0.5, 1.5)
!
! Default initialization of derived-type components (`real(8) :: dt = 0.1d0`): locals,
! local arrays of structures and a BLOCK's structure get the default values on entry,
! an INTENT(OUT) dummy on entry to the callee (the value the caller left is gone), a
! function result of the type, ALLOCATE of an allocatable array of structures, and a
! SAVEd structure starts with them; nested components of a type with default values,
! array components (a constructor, one value for all), CHARACTER and LOGICAL ones.
module model_params
  implicit none
  integer, parameter :: nw = 3
  real(8), parameter :: half = 0.5d0
  type :: coeff_t
    real(8) :: a = 2.5d0
    integer :: flag
  end type coeff_t
  type :: params_t
    real(8) :: dt = 0.1d0, x
    real(8) :: w(nw) = [1d0, -2d0, 3d0]
    real(8) :: z(4) = half
    character(len=6) :: name = 'euler'
    logical :: implicit_step = .false.
    type(coeff_t) :: c
    type(coeff_t) :: cs(2)
  end type params_t
contains
  subroutine configure(p, y)
    type(params_t), intent(out) :: p
    real(8), intent(in) :: y
    p%x = y
    p%cs(2)%a = p%cs(2)%a + y
  end subroutine configure

  type(coeff_t) function scaled(v)
    real(8), intent(in) :: v
    scaled%flag = 1
    scaled%a = scaled%a * v
  end function scaled

  real(8) function energy(n, u)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    type(params_t) :: p, ps(2)
    type(params_t), save :: defaults
    type(params_t), allocatable :: q(:)
    type(coeff_t) :: k
    integer :: i
    energy = 0d0
    p%dt = 7d0
    p%w(2) = u(2)
    call configure(p, u(1))
    ps(1)%x = u(3)
    allocate(q(2))
    q(2)%z(3) = q(2)%z(3) * u(4)
    do i = 1, n
      energy = energy + p%dt * u(i)**2 * p%w(mod(i, nw) + 1) + p%z(2) * p%c%a * u(i) &
             + ps(2)%cs(1)%a * p%x * u(i) + q(2)%z(3) * q(1)%cs(2)%a * u(i) &
             + p%cs(2)%a * sin(u(i)) + ps(1)%x * defaults%w(3) * u(i)
      ps(2)%w(1) = ps(2)%w(1) * u(i)
    end do
    energy = energy + ps(2)%w(1)
    if (.not. p%implicit_step .and. p%name == 'euler') energy = energy * defaults%dt * 20d0
    block
      type(coeff_t) :: b
      b%a = b%a * u(n)
      energy = energy + b%a * u(1)
    end block
    k = scaled(u(2))
    energy = energy + k%a * u(3)
    deallocate(q)
  end function energy
end module model_params
