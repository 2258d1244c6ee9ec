! adgen-test
! head: assemble(cost)/(x coef)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(-1, 1)
! arg coef: real(8)[2] = uniform(0.5, 1.5)
! arg cost: real(8)
!
! POINTER dummy arguments as older codes pass their work arrays: 1-D (the caller's lower
! bound 0 kept, as a pointer keeps it) and 2-D ones read and written through, a pointer
! dummy passed on to another, a scalar POINTER dummy, associated() of a dummy whose
! caller passes a null pointer, and a pointer passed to an assumed-shape dummy.
module work_arrays
  implicit none
contains
  subroutine smooth(u, c, w)
    real(8), pointer :: u(:)
    real(8), intent(in) :: c
    real(8), pointer, intent(in) :: w(:, :)
    integer :: i
    do i = lbound(u, 1) + 1, ubound(u, 1)
      u(i) = u(i) + c * u(i - 1) * w(i - lbound(u, 1), 2)
    end do
    call scale_by(u, w(1, 1))
  end subroutine smooth

  subroutine scale_by(v, s)
    real(8), pointer :: v(:)
    real(8), intent(in) :: s
    v = v * s
  end subroutine scale_by

  subroutine accumulate(total, v, extra)
    real(8), pointer :: total
    real(8), intent(in) :: v(:)
    real(8), pointer :: extra(:)
    total = total + sum(v**2)
    if (associated(extra)) total = total + sum(extra)
  end subroutine accumulate
end module work_arrays

subroutine assemble(n, x, coef, cost)
  use work_arrays
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), coef(2)
  real(8), intent(out) :: cost
  real(8), pointer :: u(:), w(:, :), acc, none(:)
  integer :: i
  allocate(u(0:n - 1), w(n, 2), acc)
  do i = 0, n - 1
    u(i) = x(i + 1)
  end do
  w(:, 1) = coef(2)
  w(:, 2) = cos(x)
  acc = 0.0d0
  nullify(none)
  call smooth(u, coef(1), w)
  call accumulate(acc, u, none)
  call accumulate(acc, x, u)
  cost = acc
  deallocate(u, w, acc)
end subroutine assemble
