! adgen-test
! head: total(t)/(x c)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg c: real(8) = 0.7
! arg t: real(8)
!
! Functions whose array result is ALLOCATABLE, its shape known only once the function has
! run: allocated with other lower bounds, of rank 2, allocated by an assignment (also
! from pack), with a RETURN, one calling another, an internal one, one called through a
! dummy procedure; referenced in assignments, reductions, as an argument and in a loop
! with a new length at each call. Each hands its result's storage and extents over to its
! caller, which reads it as a temporary array and frees it after the statement; the
! adjoints follow the same way.
module m
  implicit none
contains
  function scaled(n, x) result(r)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), allocatable :: r(:)
    allocate(r(0:n - 1))
    r = 2d0 * x**2
    if (n > 100) return
    r(0) = r(0) + x(n)
  end function scaled

  function outer(x, c) result(p)
    real(8), intent(in) :: x(:), c
    real(8), allocatable :: p(:, :)
    integer :: i, j
    allocate(p(2, size(x)))
    do j = 1, size(x)
      do i = 1, 2
        p(i, j) = c * x(j) + i
      end do
    end do
  end function outer

  function grown(x, k) result(g)
    real(8), intent(in) :: x(:)
    integer, intent(in) :: k
    real(8), allocatable :: g(:)
    g = x(1:k) * x(k)
  end function grown

  function chained(n, x) result(q)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), allocatable :: q(:)
    q = scaled(n, x) + sin(x)
  end function chained

  function positive(x) result(r)
    real(8), intent(in) :: x(:)
    real(8), allocatable :: r(:)
    r = pack(x, x > 0.0d0) * 2.0d0
  end function positive

  real(8) function through(fn, n, x)
    procedure(scaled) :: fn
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    through = sum(fn(n, x) ** 2)
  end function through

  real(8) function weigh(v)
    real(8), intent(in) :: v(:)
    weigh = sum(v * v)
  end function weigh
end module m

subroutine total(n, x, c, t)
  use m
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), c
  real(8), intent(out) :: t
  real(8), allocatable :: y(:), z(:, :)
  integer :: k
  y = scaled(n, x)
  t = sum(y * x)
  z = outer(x, c)
  t = t + sum(z(2, :)) * z(1, 1)
  do k = 1, n
    t = t + sum(grown(x, k)) / k
  end do
  t = t + weigh(chained(n, x)) + sum(scaled(n, x) * x)
  t = t + sum(contained(3)) + sum(positive(x - 0.9d0) ** 2) + through(scaled, n, x)
contains
  function contained(m) result(w)
    integer, intent(in) :: m
    real(8), allocatable :: w(:)
    allocate(w(m))
    w = c * x(1:m)
  end function contained
end subroutine total
