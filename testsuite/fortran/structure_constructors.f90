! adgen-test
! head: cost(c)/(x nu)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg nu: real(8) = 0.3
! arg c: real(8)
!
! Structure constructors: values given in order and by keyword, the components left out
! taking their default values; a nested constructor; array components given an array or
! one value for all; a constructor whose values read the structure assigned (through a
! temporary); constructors as actual arguments (of a function and of a subroutine), also
! in an IF condition and a DO WHILE test (built again at each test); a SAVEd structure
! and a PARAMETER given one as their value.
module flow
  implicit none
  type :: coeffs_t
    real(8) :: a = 1d0
    real(8) :: b
  end type coeffs_t
  type :: state_t
    real(8) :: u(3)
    real(8) :: nu = 0.1d0
    type(coeffs_t) :: k
    character(len=4) :: tag = 'none'
    integer :: steps = 2
  end type state_t
  type(coeffs_t), parameter :: unit_coeffs = coeffs_t(2d0, 0.5d0)
contains
  real(8) function weight(k)
    type(coeffs_t), intent(in) :: k
    weight = k%a * k%b
  end function weight

  subroutine advance(s, h)
    type(state_t), intent(inout) :: s
    real(8), intent(in) :: h
    integer :: i
    do i = 1, s%steps
      s%u = s%u + h * s%nu * (s%k%a * s%u**2 - s%k%b)
    end do
  end subroutine advance

  subroutine accumulate(c, s)
    real(8), intent(inout) :: c
    type(state_t), intent(in) :: s
    c = c + s%nu * sum(s%u) * s%k%b + s%k%a
  end subroutine accumulate

  subroutine cost(n, x, nu, c)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), nu
    real(8), intent(out) :: c
    type(state_t) :: s, t
    type(coeffs_t) :: k
    type(coeffs_t), save :: start = coeffs_t(b=3d0)
    integer :: i
    s = state_t(x(1:3), nu, coeffs_t(x(4), b=nu * x(2)))
    call advance(s, 0.01d0)
    t = state_t([x(2), x(3), x(1)], k=coeffs_t(b=x(4)), steps=1)
    call advance(t, 0.02d0)
    s = state_t(t%u, s%nu, s%k, 'swap', s%steps)     ! reads s: through a temporary
    call advance(s, 0.01d0)
    k = coeffs_t(nu, x(1))
    c = sum(s%u**2) + sum(t%u) * weight(coeffs_t(x(2), nu)) + weight(k) &
        + weight(unit_coeffs) * x(3) + start%a * start%b * x(4)
    call accumulate(c, state_t(s%u, 0.5d0, k))
    if (s%tag == 'swap') c = c + t%nu * x(1) + t%k%a
    if (weight(coeffs_t(x(1), nu)) > 0.1d0) c = c * 1.5d0
    i = 0
    do while (weight(coeffs_t(c, 0.5d0)) < 5d0 .and. i < 30)
      c = c * 1.2d0
      i = i + 1
    end do
  end subroutine cost
end module flow
