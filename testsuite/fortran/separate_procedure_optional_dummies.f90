! adgen-test
! head: drive(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.2, 1.4)
! arg y: real(8)
!
! The attributes the module's interfaces give the dummies of separate module procedures
! hold in their bodies and at their calls, for a body written without its dummies
! (`module procedure relax ... end procedure`) and for one repeating them (`module
! subroutine tilt(...)`): an OPTIONAL dummy left out (by position and among keyword
! arguments) and given, a VALUE dummy, INTENT(IN)/INTENT(INOUT), an assumed-shape and an
! explicit-shape array, a TARGET dummy.
! Before: "the call of 'relax' gives no argument 'r', which is not an OPTIONAL dummy of a
! procedure in the input".
module sep_optional
  implicit none
  interface
    module subroutine relax(x, r, k)
      real(8), intent(inout) :: x(:)
      real(8), intent(in), optional :: r
      integer, value :: k
    end subroutine relax
    module subroutine tilt(m, x, w, s)
      integer, intent(in) :: m
      real(8), intent(inout), target :: x(m)
      real(8), intent(in), optional :: w(m)
      real(8), intent(in) :: s
    end subroutine tilt
  end interface
end module sep_optional

submodule (sep_optional) sep_optional_impl
  implicit none
contains
  module procedure relax
    real(8) :: f
    f = 0.5d0
    if (present(r)) f = r
    k = k + 1
    x = x * f + x(1) * k
  end procedure relax

  module subroutine tilt(m, x, w, s)
    real(8), intent(in) :: s
    integer, intent(in) :: m
    real(8), optional, intent(in) :: w(1:m)
    real(8), target, intent(inout) :: x(1:m)
    real(8), pointer :: p(:)
    p => x
    if (present(w)) then
      p = p + s * w
    else
      p = p * s
    end if
  end subroutine tilt
end submodule sep_optional_impl

subroutine drive(n, x, y)
  use sep_optional
  implicit none
  integer :: k = 0, n
  real(8) :: x(n), y, w(n)
  intent(in) :: n
  intent(inout) :: x
  intent(out) :: y
  k = 1
  call relax(x, 0.25d0, k)
  call relax(x, k=k)
  call relax(k=2, x=x)
  w = sin(x)
  call tilt(n, x, w, 0.3d0)
  call tilt(n, x, s=1.1d0)
  y = sum(x * x) + k
end subroutine drive
