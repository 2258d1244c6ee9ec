! adgen-test
! head: scale(x)/(x)
! expect-error: allocatable module variable 'state'
! expect-error-line: 9
!
! An allocatable module variable lives in gfortran's array descriptor, which the C output
! cannot share: adgen refuses it at its declaration.
module store
  real(8), allocatable :: state(:)
end module store

subroutine scale(x)
  use store
  implicit none
  real(8), intent(inout) :: x
  x = x * 2d0
end subroutine scale
