! adgen-test
! head: sweeps_once(y s)/(x a)
! arg n: integer = 7
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg a: real(8) = 0.6
! arg y: real(8)[n]
! arg s: real(8)
! setup: reset_passes
!
! Fortran evaluates the bounds of a DO loop once, before the loop: loops whose end
! the body changes (a local it assigns, a local a called subroutine decrements, a module
! variable a module procedure decrements), one with a negative step whose end grows,
! an end that calls a function with a constant argument, and an implied-DO with a
! negative step in an array constructor.
module passes_mod
  implicit none
  integer :: npass = 0
contains
  subroutine reset_passes()
    npass = 3
  end subroutine reset_passes

  subroutine use_pass(v, a)
    real(8), intent(inout) :: v
    real(8), intent(in) :: a
    v = v * a + 0.1d0
    npass = npass - 1
  end subroutine use_pass

  integer function twice(k)
    integer, intent(in) :: k
    twice = 2 * k
  end function twice
end module passes_mod

subroutine shrink(m)
  implicit none
  integer, intent(inout) :: m
  m = m - 1
end subroutine shrink

subroutine sweeps_once(n, x, a, y, s)
  use passes_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a
  real(8), dimension(n) :: x, y, rev
  real(8), intent(out) :: s
  integer :: i, m, k
  y = x
  m = n
  do i = 1, m
    y(i) = y(i) * a + 0.01d0 * m
    m = m - 1
  end do
  m = n
  do i = 1, m
    call shrink(m)
    y(i) = y(i) + a * m / n
  end do
  s = 0.0d0
  do k = 1, npass
    call use_pass(s, a)
    s = s + y(k)
  end do
  m = 4
  do i = m, 2, -1
    m = m + 1
    y(i) = y(i) + 0.5d0 * y(i - 1) * a
  end do
  do i = 1, twice(3)
    s = s + y(i)**2
  end do
  rev = [(x(i) * a, i = n, 1, -1)]
  y = y + rev * dble(m)
end subroutine sweeps_once
