! adgen-test
! head: cost(J)/(x)
! arg x: real(8)[5] = uniform(0.5, 1.5)
! arg J: real(8)
! head: smooth(s)/(y)
! arg y: real(8)[5] = uniform(-1, 1)
! arg s: real(8)
! setup: init_five
!
! A size kept in a module variable, set by an init routine (called before every
! evaluation through `setup:`): `x(n)`, loop bounds and an assumed-size dummy all read
! the module's n, which the heads and what they call leave as they found it. So it is a
! size, as a size argument is: the trip counts of the loops over it are computed again,
! not stored, the stack the adjoint needs is bounded by it, and y(*) gets n elements.
! (A C global int was such a size already; a Fortran module integer was not.)
module sizes
  implicit none
  integer :: n
  real(8), allocatable :: w(:)
contains
  subroutine init(m)
    integer, intent(in) :: m
    integer :: i
    n = m
    if (allocated(w)) deallocate(w)
    allocate(w(n))
    do i = 1, n
      w(i) = 1.0d0 + 0.25d0 * i
    end do
  end subroutine

  subroutine cost(x, J)
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: J
    integer :: i
    J = 0
    do i = 1, n
      J = sin(J + w(i) * x(i)**2)
    end do
  end subroutine

  subroutine relax(y, r)
    real(8), intent(in) :: y(*)
    real(8), intent(inout) :: r(n)
    integer :: i
    do i = 2, n
      r(i) = r(i) * cos(r(i - 1)) + y(i)
    end do
  end subroutine

  subroutine smooth(y, s)
    real(8), intent(in) :: y(*)
    real(8), intent(out) :: s
    real(8) :: r(n)
    integer :: i, k
    do i = 1, n
      r(i) = y(i) * w(i)
    end do
    do k = 1, 3
      call relax(y, r)
    end do
    s = 0
    do i = 1, n
      s = s + r(i)**2
    end do
  end subroutine
end module

subroutine init_five()
  use sizes
  call init(5)
end subroutine
