! adgen-test
! head: f(y)/(x c)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg c: real(8) = 0.6
! arg y: real(8)
!
! Intrinsic assignment of whole structures with allocatable components, as Fortran
! defines it: every component copied, the allocatable ones deep (the target reallocated to
! the value's bounds where they differ, also from another length or other lower bounds,
! and deallocated where the value's component is not allocated), a component of a derived
! type component by component (a type nested in another, an extended type's parent part),
! a structure that is a component of another assigned whole, the target an INTENT(INOUT)
! dummy argument whose components get new storage for the caller, a function result of
! the nested type; in a loop where the values copied from are changed afterwards and the
! shapes change at each iteration, so that the backward sweep must restore what each
! assignment overwrote.
module fields
  implicit none
  type :: grid_t
    integer :: n
    real(8) :: h
    real(8), allocatable :: u(:)
    real(8), allocatable :: a(:, :)
  end type grid_t
  type :: sim_t
    real(8) :: dt
    type(grid_t) :: g
    real(8), allocatable :: w(:)
    real(8) :: p(2)
  end type sim_t
  type, extends(grid_t) :: tagged_t
    real(8), allocatable :: extra(:)
    integer :: tag
  end type tagged_t
contains
  subroutine fill(g, m, lo, v)
    type(grid_t), intent(inout) :: g
    integer, intent(in) :: m, lo
    real(8), intent(in) :: v
    integer :: i
    if (allocated(g%u)) deallocate(g%u)
    if (allocated(g%a)) deallocate(g%a)
    allocate(g%u(lo:lo + m - 1), g%a(2, m))
    g%n = m
    g%h = v
    do i = lo, lo + m - 1
      g%u(i) = v * (i - lo + 1)
    end do
    g%a(1, :) = g%u
    g%a(2, :) = v**2
  end subroutine fill

  subroutine copy_into(to, from)
    type(grid_t), intent(inout) :: to
    type(grid_t), intent(in) :: from
    to = from
    to%u = 2.0d0 * to%u
  end subroutine copy_into

  real(8) function total(g)
    type(grid_t), intent(in) :: g
    total = g%h * g%n
    if (allocated(g%u)) total = total + sum(g%u**2) + lbound(g%u, 1) + size(g%u)
    if (allocated(g%a)) total = total + sum(g%a) * size(g%a, 2)
  end function total

  function make_sim(g, c) result(s)
    type(grid_t), intent(in) :: g
    real(8), intent(in) :: c
    type(sim_t) :: s
    s%dt = c
    s%p = c
    s%g = g
    allocate(s%w(3))
    s%w = c * g%u(lbound(g%u, 1))
  end function make_sim

  subroutine f(n, x, c, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), c
    real(8), intent(out) :: y
    type(grid_t) :: a, b, e
    type(sim_t) :: s, t
    type(tagged_t) :: p, q
    integer :: k
    call fill(a, 3, 1, c)
    call fill(b, n + 1, 0, x(1))
    a = b                 ! another length and lower bound: reallocated
    b%u = b%u * x(2)
    y = total(a) + total(b)
    e%n = 2
    e%h = c
    a = e                 ! e's components are not allocated: a's deallocated
    y = y + total(a)
    s%dt = c
    s%p = x(1:2)
    s%g = b               ! a structure component assigned whole
    allocate(s%w(n))
    s%w = x * c
    do k = 1, 3
      call fill(b, n + k, k - 1, x(k) * c)
      t = s
      s%g%u = s%g%u * b%u(k)
      s%w = s%w + sin(t%g%u(1:n))
      s = t
      t = make_sim(b, x(k))
      y = y + sum(t%w) + total(t%g)
      s%g = b
      y = y + total(s%g) + sum(s%w) * t%dt + sum(t%p)
      call copy_into(a, b)
      b = a
      y = y + total(b) * x(k)
    end do
    call fill(p%grid_t, n, 1, c)
    allocate(p%extra(2))
    p%extra = x(3:4)
    p%tag = 7
    q = p
    p%extra = 0.0d0
    p%u = 0.0d0
    y = y + sum(q%extra**2) + total(q%grid_t) + q%tag
  end subroutine f
end module fields
