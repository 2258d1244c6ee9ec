! adgen-test
! head: spline_energy(e)/(c t)
! arg n: integer = 6
! arg c: real(8)[0:n] = uniform(-1, 1)
! arg t: real(8)[-1:1, n] = uniform(0.5, 1.5)
! arg e: real(8)
!
! Assumed-shape dummies with lower bounds other than 1 (a(0:), w(-1:, :), x(2:)):
! lbound / ubound with and without DIM, loops over lbound(a, 1) .. ubound(a, 1), an
! internal procedure (contains) and a module function with assumed-shape dummies, and
! an external procedure with assumed-shape dummies called through an interface block.
! The caller passes whole arrays with their own lower bounds and sections.
module spline_terms
  implicit none
contains
  real(8) function smooth_sum(x)
    real(8), intent(in) :: x(2:)
    integer :: lo(1), i
    lo = lbound(x)
    smooth_sum = 0.0d0
    do i = lo(1), ubound(x, dim=1)
      smooth_sum = smooth_sum + sqrt(1.0d0 + x(i)**2) * (i - 1)
    end do
  end function smooth_sum
end module spline_terms

subroutine differences(a, d)
  implicit none
  real(8), intent(in) :: a(0:)
  real(8), intent(out) :: d(0:)
  d = a(1:ubound(a, 1)) - a(0:ubound(a, 1) - 1)
end subroutine differences

subroutine spline_energy(n, c, t, e)
  use spline_terms
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: c(0:n), t(-1:1, n)
  real(8), intent(out) :: e
  real(8) :: d(0:n-1)
  interface
    subroutine differences(a, d)
      real(8), intent(in) :: a(0:)
      real(8), intent(out) :: d(0:)
    end subroutine differences
  end interface
  e = bending(c) + tension(c, t)
  call differences(c, d)
  e = e + smooth_sum(d) + smooth_sum(c(1:n - 1))
contains
  real(8) function bending(a)
    real(8), intent(in) :: a(0:)
    integer :: i
    bending = 0.0d0
    do i = lbound(a, 1) + 1, ubound(a, 1) - 1
      bending = bending + (a(i-1) - 2.0d0 * a(i) + a(i+1))**2
    end do
  end function bending

  real(8) function tension(a, w)
    real(8), intent(in) :: a(0:), w(-1:, :)
    integer :: i, k, hi(2)
    hi = ubound(w)
    tension = 0.0d0
    do i = 1, hi(2)
      do k = lbound(w, 1), ubound(w, 1)
        tension = tension + w(k, i) * a(min(ubound(a, 1), max(0, i + k)))**2
      end do
    end do
    tension = tension / size(w)
  end function tension
end subroutine spline_energy
