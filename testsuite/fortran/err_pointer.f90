! adgen-test
! head: pick(y)/(w)
! expect-error: pointer assignment to the POINTER dummy argument
! expect-error-line: 24
!
! A local POINTER may point at arrays the procedure has (pointer_buffers.f90) or at storage
! of its own (pointer_allocated.f90), and a POINTER dummy argument may be read and written
! through (pointer_dummies.f90); pointing a dummy elsewhere for the caller is refused at
! that line.
subroutine pick(n, w, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: w(n)
  real(8), intent(out) :: y
  real(8), pointer :: p(:)
  allocate(p(n))
  p = w * w
  call total(p, y)
  deallocate(p)
contains
  subroutine total(q, s)
    real(8), pointer :: q(:)
    real(8), intent(out) :: s
    q => null()
    s = 0.0d0
  end subroutine total
end subroutine pick
