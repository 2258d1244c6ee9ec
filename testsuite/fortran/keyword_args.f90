! adgen-test
! head: kwmain(r y)/(x a)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg a: real(8) = 0.8
! arg r: real(8)
! arg y: real(8)[n]
!
! Keyword actual arguments matched to the callee's dummy arguments by name, whatever
! their order: calls of external procedures (by the names of the interface block the
! caller sees, which may differ from those of the procedure's source), of a module
! procedure and of an internal procedure, keywords after positional arguments, and
! keyword arguments of intrinsics (atan2(x=..., y=...), size(dim=..., array=...)).
! Matched by position, every call would compute something else.
module kw_mod
  implicit none
contains
  subroutine axpy(n, alpha, xs, ys)
    integer, intent(in) :: n
    real(8), intent(in) :: alpha, xs(n)
    real(8), intent(inout) :: ys(n)
    ys = ys + alpha * xs
  end subroutine axpy
end module kw_mod

subroutine lincomb(p, q, res)
  implicit none
  real(8), intent(in) :: p, q
  real(8), intent(out) :: res
  res = 2.0d0 * p - q**2
end subroutine lincomb

real(8) function ratio(num, den)
  implicit none
  real(8), intent(in) :: num, den
  ratio = num / den
end function ratio

subroutine kwmain(n, x, a, r, y)
  use kw_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), a
  real(8), intent(out) :: r, y(n)
  real(8) :: t, u
  interface
    subroutine lincomb(p, q, res)
      real(8), intent(in) :: p, q
      real(8), intent(out) :: res
    end subroutine lincomb
    real(8) function ratio(top, bottom)
      real(8), intent(in) :: top, bottom
    end function ratio
  end interface
  call lincomb(q=x(1), p=a, res=t)
  call lincomb(x(2), res=u, q=a)
  y = x
  call axpy(ys=y, xs=x, alpha=a, n=n)
  r = t + u + ratio(bottom=2.0d0 + a, top=x(3)) + ratio(x(4), bottom=a)
  r = r + atan2(x=x(1), y=a) + size(dim=1, array=x) * shifted(by=a, v=x(2))
contains
  real(8) function shifted(v, by)
    real(8), intent(in) :: v, by
    shifted = v - 3.0d0 * by
  end function shifted
end subroutine kwmain
