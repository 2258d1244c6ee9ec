! adgen-test
! head: fsub(y s)/(x a)
! arg n: integer = 3
! arg x: real(8)[0:n-1] = uniform(0.5, 1.5)
! arg a: real(8) = 0.7
! arg y: real(8)[n]
! arg s: real(8)
! head: ffun(ffun)/(z)
! arg m: integer = 2
! arg z: real(8)[m] = uniform(-1, 1)
! setup: fsetup
!
! For tests/test_harness.py: a subroutine (scalar dependent, lower bound 0, module
! state set by the setup routine) and a function; hand-written derivatives in fgood/.
module tinymod
  implicit none
  real(8) :: scale = 0.0d0
contains
  subroutine fsetup()
    scale = 2.0d0
  end subroutine fsetup
end module tinymod

subroutine fsub(n, x, a, y, s)
  use tinymod
  implicit none
  integer :: n
  real(8) :: x(0:n-1), a, y(n), s
  integer :: i
  s = 0.0d0
  do i = 1, n
    y(i) = a * sin(x(i-1)) * scale
    s = s + y(i) * x(i-1)
  end do
  print *, 'fsub', s
end subroutine fsub

real(8) function ffun(m, z)
  implicit none
  integer :: m
  real(8) :: z(m)
  ffun = sum(z**2) / 2.0d0
end function ffun
