! adgen-test
! head: filtered(y)/(x)
! arg x: real(8)[5] = uniform(-1, 1)
! arg y: real(8)[5]
! flags: -DUSE_CUBIC
!
! A .F90 file goes through the C preprocessor first: #define, #ifdef/#else, a
! macro used as an array size and a -D flag from the command line (flags:).
#define NPTS 5
#define WEIGHT 0.25d0
subroutine filtered(x, y)
  implicit none
  real(8), intent(in) :: x(NPTS)
  real(8), intent(out) :: y(NPTS)
  integer :: i
  do i = 1, NPTS
#ifdef USE_CUBIC
    y(i) = x(i) + WEIGHT * x(i)**3
#else
    y(i) = x(i) + WEIGHT * x(i)**2
#endif
  end do
end subroutine filtered
