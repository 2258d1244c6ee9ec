! adgen-test
! head: relax(cost)/(x kappa)
! arg n: integer = 7
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg kappa: real(8) = 0.8
! arg cost: real(8)
!
! Allocatable components of derived types in a local structure: gfortran's array
! descriptors inline in the struct, filled by ALLOCATE (with default and other lower
! bounds, with STAT=), read through them (elements, whole arrays, sections, reductions,
! size, lbound, ubound, allocated), the components of a component (`s%g%u(i)`), passed to
! explicit-shape and assumed-shape dummies, deallocated by DEALLOCATE (with STAT=) and
! automatically: at the end of the procedure, at a RETURN (the function `peak` leaves
! early) and at the end of a BLOCK. The values carry derivatives.
module fields
  implicit none
  type :: grid_t
    integer :: n
    real(8), allocatable :: u(:)
    real(8), allocatable :: flux(:, :)
    integer, allocatable :: idx(:)
  end type grid_t
  type :: sim_t
    real(8) :: dt
    type(grid_t) :: g
    real(8), allocatable :: w(:)
  end type sim_t
contains
  subroutine smooth(m, a, b)
    integer, intent(in) :: m
    real(8), intent(in) :: a(m)
    real(8), intent(inout) :: b(m)
    integer :: i
    do i = 2, m - 1
      b(i) = b(i) + 0.25d0 * (a(i - 1) - 2.0d0 * a(i) + a(i + 1))
    end do
  end subroutine smooth

  real(8) function energy(v)
    real(8), intent(in) :: v(:)
    energy = 0.5d0 * sum(v**2) + v(size(v))
  end function energy

  subroutine scale_all(v, f)
    real(8), intent(inout) :: v(:, :)
    real(8), intent(in) :: f
    v = f * v
  end subroutine scale_all

  real(8) function peak(m, v)
    integer, intent(in) :: m
    real(8), intent(in) :: v(m)
    type(grid_t) :: t
    integer :: i
    allocate(t%u(0:m - 1))
    t%u(0:m - 1) = v
    peak = t%u(0)
    do i = 1, m - 1
      if (t%u(i) > 1.2d0) then
        peak = peak + t%u(i)**2
        return            ! t%u is deallocated here
      end if
      peak = peak + t%u(i)
    end do
  end function peak

  subroutine relax(n, x, kappa, cost)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), kappa
    real(8), intent(out) :: cost
    type(sim_t) :: s
    integer :: i, k, ierr
    s%dt = 0.1d0
    s%g%n = n
    allocate(s%g%u(n), s%g%flux(2, 0:n), stat=ierr)
    if (ierr /= 0) return
    allocate(s%g%idx(n))
    allocate(s%w(-1:n - 2))
    do i = 1, n
      s%g%idx(i) = n + 1 - i
    end do
    s%g%u = x
    s%g%flux = 0.0d0
    s%w = kappa * s%g%u
    do k = 1, 3
      do i = 1, n
        s%g%flux(1, i) = kappa * s%g%u(i) * s%w(i - 2)
        s%g%flux(2, i) = s%g%u(s%g%idx(i)) - s%g%u(i)
      end do
      s%g%u(2:n) = s%g%u(2:n) + s%dt * (s%g%flux(1, 2:n) - s%g%flux(1, 1:n - 1))
      call smooth(size(s%g%u), s%w, s%g%u)
      s%w(lbound(s%w, 1):ubound(s%w, 1)) = s%w + s%dt * sin(s%g%u)
    end do
    call scale_all(s%g%flux, 0.5d0)
    cost = energy(s%g%u) + sum(s%g%flux(1, :)**2) + peak(n, s%w)
    block
      type(grid_t) :: tmp
      allocate(tmp%u(size(s%w)))
      tmp%u = s%w * s%g%u
      cost = cost + maxval(tmp%u)
    end block
    deallocate(s%w, stat=ierr)
    if (.not. allocated(s%w) .and. allocated(s%g%u)) cost = cost + s%g%u(1) * ierr
    deallocate(s%g%idx)
  end subroutine relax
end module fields
