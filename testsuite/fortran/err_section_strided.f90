! adgen-test
! head: even_sum(s)/(x)
! expect-error: not contiguous
! expect-error-line: 17
!
! A strided section, x(2:n:2), passed to an assumed-shape dummy: adgen passes array
! sections by the address of their first element and reads the elements of an
! assumed-shape dummy contiguously, so it must refuse the call.
subroutine even_sum(n, x, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  integer :: i
  s = cubes(x(1:n))
  do i = 1, 2
    s = s + i * cubes(x(i:n:2))
  end do
contains
  real(8) function cubes(v)
    real(8), intent(in) :: v(:)
    cubes = sum(v**3)
  end function cubes
end subroutine even_sum
