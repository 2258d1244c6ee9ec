! adgen-test
! head: combine(e)/(x s)
! arg x: real(8)[5] = uniform(-1, 1)
! arg s: real(8) = 0.6
! arg e: real(8)
!
! A generic procedure called with array constructors inside array expressions, whose only
! array operands are the constructors (`0.8d0 * ([s, s, x(5)] - c)`): the argument is a
! vector, so the generic resolves to its vector specific, not its scalar one; also a
! constructor of integers (the integer specific), one beside an array section, and a
! generic function inside an expression.
module generic_constructors
  implicit none
  interface norm2ish
    module procedure norm_vec, norm_scalar, norm_ints
  end interface norm2ish
contains
  function norm_vec(m, v) result(r)
    integer, intent(in) :: m
    real(8), intent(in) :: v(m)
    real(8) :: r
    r = sum(v * v) + 0.5d0 * v(m)
  end function norm_vec

  function norm_scalar(m, v) result(r)
    integer, intent(in) :: m
    real(8), intent(in) :: v
    real(8) :: r
    r = 100.0d0 * m * v
  end function norm_scalar

  function norm_ints(m, k) result(r)
    integer, intent(in) :: m
    integer, intent(in) :: k(m)
    real(8) :: r
    r = 0.25d0 * sum(k)
  end function norm_ints

  subroutine combine(x, s, e)
    real(8), intent(in) :: x(5), s
    real(8), intent(out) :: e
    real(8) :: c
    c = log10(1.5d0 + sin(0.2d0))
    e = norm2ish(3, 0.8d0 * ([s, s, x(5)] - c))
    e = e + sin(norm2ish(2, [x(1) * s, x(2)] + x(3:4)))
    e = e * norm2ish(3, [1, 2, 4]) + norm2ish(1, s * x(2))
  end subroutine combine
end module generic_constructors
