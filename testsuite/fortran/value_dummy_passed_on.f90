! adgen-test
! head: sub(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)[n]
!
! VALUE dummies handed on to other procedures, which get their address: one active
! (`call cube(v, r)`: the callee's derivative code takes the address of v's derivative
! too, a local of mid's, added to the caller's at the entry), one inactive that the callee
! changes (`call grow(w)`) before the statement whose adjoint reads it (its value at the
! end of the forward sweep travels to the backward sweep).
module passed_on
  implicit none
contains
  subroutine cube(a, r)
    real(8), intent(in) :: a
    real(8), intent(out) :: r
    r = a ** 3
  end subroutine cube

  subroutine grow(a)
    real(8), intent(inout) :: a
    a = a * 2.0d0 + 0.5d0
  end subroutine grow

  real(8) function mid(v, w)
    real(8), value :: v, w
    real(8) :: r
    call cube(v, r)
    call grow(w)
    mid = r * w + v
  end function mid

  subroutine sub(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y(n)
    integer :: i
    do i = 1, n
      y(i) = mid(x(i), 1.5d0 + i)
    end do
  end subroutine sub
end module passed_on
