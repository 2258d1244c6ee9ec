! adgen-test
! head: f(y)/(x c)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg c: real(8) = 0.6
! arg y: real(8)
!
! Structure constructors of types with allocatable components: a component given an array
! (a whole array, which gives its bounds, an expression or a section, whose bounds are
! from 1, a rank-2 array), by position and by keyword, an allocatable array that is not
! allocated or null() (the component is then not allocated), a component of a derived
! type given a constructor of its own; a constructor reading the structure it is assigned
! to (through a temporary structure), one passed as an argument, and constructors in a
! loop whose arrays change length at each iteration.
module shapes
  implicit none
  type :: curve_t
    integer :: m
    real(8), allocatable :: p(:)
  end type curve_t
  type :: body_t
    real(8) :: w
    type(curve_t) :: edge
    real(8), allocatable :: q(:, :)
  end type body_t
contains
  real(8) function length(cv)
    type(curve_t), intent(in) :: cv
    length = cv%m
    if (allocated(cv%p)) length = length + sum(cv%p**2) + 3 * lbound(cv%p, 1) + size(cv%p)
  end function length

  subroutine f(n, x, c, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), c
    real(8), intent(out) :: y
    type(curve_t) :: a, b
    type(body_t) :: s
    real(8), allocatable :: v(:), none(:)
    real(8) :: grid(2, 3)
    integer :: k
    allocate(v(0:n - 1))
    v = x * c
    a = curve_t(n, v)                      ! a whole array: its bounds, 0:n-1
    y = length(a)
    b = curve_t(m=2, p=sin(x(2:n)) * c)    ! an expression: bounds from 1
    y = y + length(b)
    a = curve_t(3, x(1:3))                 ! a section: bounds from 1, a reallocated
    y = y + length(a)
    b = curve_t(1, none)                   ! not allocated
    y = y + length(b)
    b = curve_t(4, null())
    y = y + length(b)
    grid = reshape([(x(mod(k, n) + 1) * k, k = 1, 6)], [2, 3])
    s = body_t(c, curve_t(n, x**2), grid)
    y = y + s%w * length(s%edge) + sum(s%q * s%q) + size(s%q, 2)
    y = y + length(curve_t(2, [c, x(1)]))
    a = curve_t(n, x)
    do k = 1, 3
      a = curve_t(a%m + 1, [a%p, c * k])  ! reads a: through a temporary
      b = curve_t(k, a%p(1:k) * x(k))
      y = y + length(a) * length(b)
      s = body_t(x(k), b, reshape(a%p(1:2 * k), [2, k]))
      y = y + sum(s%q) * s%edge%p(1) + s%w
    end do
  end subroutine f
end module shapes
