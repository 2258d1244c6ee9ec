! adgen-test
! head: even_sum(s)/(x)
! arg n: integer = 7
! arg x: real(8)[n] = uniform(-1, 1)
! arg idx: integer[3] = {5, 2, 7}
! arg s: real(8)
!
! Strided sections, x(i:n:2), and a vector subscript, x(idx), given to a function's
! INTENT(IN) assumed-shape dummy: their elements are not contiguous in memory, so each is
! copied into a temporary before the call (no copy back: the dummy is INTENT(IN)).
subroutine even_sum(n, x, idx, s)
  implicit none
  integer, intent(in) :: n, idx(3)
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  integer :: i
  s = cubes(x(1:n))
  do i = 1, 2
    s = s + i * cubes(x(i:n:2))
  end do
  s = s + cubes(x(idx)) * cubes(x(n:1:-3))
contains
  real(8) function cubes(v)
    real(8), intent(in) :: v(:)
    cubes = sum(v**3)
  end function cubes
end subroutine even_sum
