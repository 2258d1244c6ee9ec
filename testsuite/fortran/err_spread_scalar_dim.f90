! adgen-test
! head: f(b)/(a)
! expect-error: spread: DIM must be a constant from 1 to 1
! expect-error-line: 13
!
! spread of a scalar makes an array of rank 1: a DIM other than 1 is refused (gfortran
! refuses it too).
subroutine f(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a
  real(8), intent(out) :: b(n, 2)
  b = spread(a, 2, n) * 2d0
end subroutine f
