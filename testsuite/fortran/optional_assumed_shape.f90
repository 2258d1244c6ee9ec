! adgen-test
! head: cost(j)/(x w)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(-1, 1)
! arg w: real(8)[n] = uniform(0.5, 2)
! arg j: real(8)
!
! OPTIONAL assumed-shape dummies, as modern library code writes weights and masks: a
! function called with and without its optional array, which passes it on to another
! (present or not: extents of 0 when it is absent), and a subroutine testing present().
module weighted_norms
  implicit none
contains
  function wnorm(x, w) result(r)
    real(8), intent(in) :: x(:)
    real(8), intent(in), optional :: w(:)
    real(8) :: r
    if (present(w)) then
      r = sum(w * x**2) + weighted_sum(x, w)
    else
      r = sum(x**2) + weighted_sum(x)
    end if
  end function wnorm

  function weighted_sum(x, w) result(s)
    real(8), intent(in) :: x(:)
    real(8), intent(in), optional :: w(:)
    real(8) :: s
    integer :: i
    s = 0d0
    do i = 1, size(x)
      if (present(w)) then
        s = s + w(i) * sin(x(i))
      else
        s = s + sin(x(i))
      end if
    end do
  end function weighted_sum

  subroutine scale_by(x, f, w)
    real(8), intent(inout) :: x(:)
    real(8), intent(in) :: f
    real(8), intent(in), optional :: w(:)
    if (present(w)) then
      x = x * f * w
    else
      x = x * f
    end if
  end subroutine scale_by

  subroutine cost(n, x, w, j)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: j
    real(8) :: y(n)
    y = x
    call scale_by(y, 1.5d0)
    call scale_by(y, 0.5d0, w)
    j = wnorm(y) + 2d0 * wnorm(x, w)
  end subroutine cost
end module weighted_norms
