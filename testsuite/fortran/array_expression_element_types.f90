! adgen-test
! head: run(e)/(x)
! arg n: integer = 3
! arg x: real(8)[n] = [0.3d0, -0.5d0, 1.2d0]
! arg e: real(8)
!
! The element type of an array expression is Fortran's: the wider of its operands'
! (`k * 0.5d0`, `k * x` of an integer array k are real(8)), a conversion's (`dble(k)`,
! `real(k, 8)`), an elemental function's result (`val(ps)` of a derived-type array).
! Reductions accumulate in it and temporaries passed as arguments have it (before: the
! first array's type, an integer accumulator or temporary, a structure for val(ps)).
module m_elem_types
  implicit none
  type :: pt
    real(8) :: a, b
  end type pt
contains
  elemental real(8) function val(p)
    type(pt), intent(in) :: p
    val = p%a * p%b
  end function val

  real(8) function weigh(m, w)
    integer, intent(in) :: m
    real(8), intent(in) :: w(m)
    weigh = sum(w * w)
  end function weigh
end module m_elem_types

subroutine run(n, x, e)
  use m_elem_types
  implicit none
  integer, intent(in) :: n
  integer :: k(n), i
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: e
  type(pt) :: ps(n)
  do i = 1, n
    k(i) = i
    ps(i) = pt(x(i), x(i) * x(i))
  end do
  e = sum(k * 0.5d0) * x(1) + maxval(k / 2.0d0) * x(2) + sum(k * x) + minval(x * k)
  e = e + maxval(val(ps)) + sum(val(ps)) * 0.5d0 + sum(dble(k) * x) + sum(real(k, 8) * x)
  e = e + weigh(n, k * x) + weigh(n, k * 0.25d0) * x(3)
end subroutine run
