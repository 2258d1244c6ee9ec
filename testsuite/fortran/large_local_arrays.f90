! adgen-test
! head: settle(cost)/(h0)
! arg h0: real(8)[6] = uniform(0.5, 1.5)
! arg cost: real(8)
!
! Local arrays of constant size far beyond the stack (four of 12 MB, as an ice-sheet model
! declares its work arrays): gfortran keeps them in static memory, and so must the
! derivative code, its shadows included (on the stack they overflowed an 8 MB stack:
! SIGSEGV). A small local array stays on the stack.
module ice_work
  implicit none
  integer, parameter :: nbig = 1500000
contains
  subroutine settle(h0, cost)
    real(8), intent(in) :: h0(6)
    real(8), intent(out) :: cost
    real(8) :: thick(nbig), flux(nbig), tmp(nbig), acc(nbig), small(3)
    integer :: i, k
    do i = 1, 6
      thick(i) = h0(i)
    end do
    small = 0.5d0
    do k = 1, 3
      do i = 1, 6
        flux(i) = small(1) * thick(i)**2
        tmp(i) = thick(i) - 0.1d0 * flux(i)
      end do
      do i = 1, 6
        acc(i) = sin(tmp(i))
        thick(i) = tmp(i) + 0.05d0 * acc(i)
      end do
    end do
    cost = 0.0d0
    do i = 1, 6
      cost = cost + thick(i) * acc(i)
    end do
  end subroutine settle
end module ice_work
