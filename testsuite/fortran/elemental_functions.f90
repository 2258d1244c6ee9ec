! adgen-test
! head: smooth(f)/(x c)
! arg n: integer = 5
! arg x: real(8)[n] = [0.3d0, -0.5d0, 1.2d0, 0.7d0, -0.9d0]
! arg c: real(8) = 0.6d0
! arg f: real(8)
!
! User ELEMENTAL functions applied to arrays: element by element in array assignments,
! sections, reductions and WHERE masks, with a scalar argument beside the array one, one
! calling another, and called with scalars too.
module shapes
  implicit none
contains
  elemental function bump(t, c) result(r)
    real(8), intent(in) :: t, c
    real(8) :: r
    r = c * t / (1d0 + t * t)
  end function bump

  elemental function soft(t) result(r)
    real(8), intent(in) :: t
    real(8) :: r
    r = log(1d0 + exp(bump(t, 2d0)))
  end function soft
end module shapes

subroutine smooth(n, x, c, f)
  use shapes
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n)
  real(8), intent(in) :: c
  real(8), intent(out) :: f
  real(8) :: w(n)
  w = bump(x, c)
  w(2:n) = w(2:n) + soft(x(1:n-1)) * w(1:n-1)
  where (soft(w) > 0.7d0)
    x = x * bump(w, 0.5d0)
  end where
  f = sum(soft(x) * w) + bump(c, c) + maxval(bump(w, x(1)))
end subroutine smooth
