! adgen-test
! head: spread_cost(f)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.2, 1.2)
! arg f: real(8)
!
! The ALLOCATABLE statement apart from the type declaration, as the attribute: of an
! array whose type declaration gives the deferred shape, of one the statement gives it to
! (before and after the type declaration, two names in one statement, rank 2), of a
! scalar, of a module array, of a function result and in a BLOCK. Before: "unsupported
! declaration (Allocatable_Stmt)".
module stated_allocatables
  implicit none
  real(8), dimension(:) :: kept
  allocatable :: kept
contains
  function squares(m, y) result(r)
    integer, intent(in) :: m
    real(8), intent(in) :: y(m)
    real(8) :: r
    allocatable :: r(:)
    allocate(r(m))
    r = y ** 2
  end function squares
end module stated_allocatables

subroutine spread_cost(n, x, f)
  use stated_allocatables, only: kept, squares
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: f
  allocatable :: v(:)
  real(8), dimension(:) :: w
  real(8) :: v, q, s, u
  allocatable :: w, q(:, :), u(:)
  allocatable s
  integer :: i
  allocate(w(n), q(2, n))
  w = sin(x)
  v = w * x
  q(1, :) = v
  q(2, :) = cos(x)
  s = sum(q(2, :))
  u = squares(n, w)
  if (.not. allocated(kept)) allocate(kept(n))
  kept = x * s
  f = sum(v) + sum(q(1, :) * q(2, :)) * s + sum(u) + sum(kept ** 2)
  deallocate(kept)
  do i = 1, 2
    block
      real(8) :: t
      allocatable :: t(:)
      t = x(i:) * f
      f = f + sum(t) * 1d-2
    end block
  end do
end subroutine spread_cost
