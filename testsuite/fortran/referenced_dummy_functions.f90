! adgen-test
! head: run(y)/(y)
! arg y: real(8) = 0.7
!
! Dummy functions referenced with arguments but declared only by their type (no
! interface block, EXTERNAL or PROCEDURE()): Fortran needs no more, a scalar referenced
! with arguments is a function, as in quadrature and root-finding routines that take
! `real(8) :: f`, `f(a + i*h)`. A CHARACTER dummy's substring `tag(1:2)` and an array
! dummy's element `w(i)` stay what they are. Before, the call of f was refused ("declared
! as a variable").
module apply_mod
  implicit none
contains
  subroutine simpson(f, a, b, n, w, tag, s)
    real(8) :: f
    real(8), intent(in) :: a, b, w(3)
    integer, intent(in) :: n
    character(len=*), intent(in) :: tag
    real(8), intent(out) :: s
    real(8) :: h
    integer :: i
    h = (b - a) / n
    s = w(1) * (f(a) + f(b))
    do i = 1, n - 1
      s = s + w(2 + mod(i, 2)) * f(a + i * h)
    end do
    s = s * h / 3
    if (tag(1:2) == 'sq') s = s * s
  end subroutine simpson

  function bump(x)
    real(8), intent(in) :: x
    real(8) :: bump
    bump = exp(-x * x) * cos(3 * x)
  end function bump

  subroutine run(y)
    real(8), intent(inout) :: y
    real(8) :: w(3) = (/ 1d0, 2d0, 4d0 /)
    call simpson(bump, 0d0, y, 8, w, 'sq', y)
  end subroutine run
end module apply_mod
