! adgen-test
! head: f(y)/(x)
! expect-error: FORALL whose assignment reads the array it assigns elsewhere
! expect-error-line: 24
!
! A FORALL whose assignment reads the same component of another element
! (`ps(i - 1)%v`) is refused; other components of the element assigned are read freely
! (testsuite/fortran/particles_forall_components.f90).
module m
  type :: p_t
    real(8) :: v
    real(8) :: w
  end type
end module
subroutine f(x, y)
  use m
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y
  type(p_t) :: ps(3)
  integer :: i
  do i = 1, 3
    ps(i)%v = x(i)
  end do
  forall (i = 2:3) ps(i)%v = ps(i - 1)%v * 2
  y = ps(1)%v + ps(2)%v + ps(3)%v
end subroutine
