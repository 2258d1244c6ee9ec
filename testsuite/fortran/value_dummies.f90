! adgen-test
! head: f(y)/(a c)
! arg n: integer = 5
! arg a: real(8)[n] = uniform(0.5, 1.5)
! arg c: real(8) = 0.8
! arg y: real(8)
!
! Dummies with the VALUE attribute, which gfortran passes by value: a head's (c, which the
! head then changes, its own copy) and a callee's (x and k, given expressions), declared
! with the attribute and with a VALUE statement. The derivative routines take them by
! value as well (their adjoint by reference, as for a C scalar).
module value_args
  implicit none
contains
  real(8) function scaled(x, k) result(r)
    real(8), value :: x
    integer :: k
    value :: k
    x = x * k
    r = sin(x) + x * x
  end function scaled

  subroutine f(n, a, c, y)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    real(8), value :: c
    real(8), intent(out) :: y
    integer :: i
    y = 0.0d0
    do i = 1, n
      y = y + scaled(a(i) * c, i) * c
      c = c * 0.9d0
    end do
  end subroutine f
end module value_args
