! adgen-test
! head: g(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
!
! Generic interfaces: each call or reference goes to the specific procedure whose dummies
! take its arguments by type and rank (scale_it for a vector or a matrix; weight of a
! real(8) or an integer, a function in expressions; twice returning an array), by
! keyword too, and through USE with ONLY and a rename.
module ops
  implicit none
  interface scale_it
    module procedure scale_1d, scale_2d
  end interface scale_it
  interface weight
    module procedure weight_real, weight_int
  end interface weight
  interface twice
    module procedure twice_vec
  end interface twice
contains
  subroutine scale_1d(a, c)
    real(8), intent(inout) :: a(:)
    real(8), intent(in) :: c
    a = c * a
  end subroutine scale_1d

  subroutine scale_2d(a, c)
    real(8), intent(inout) :: a(:, :)
    real(8), intent(in) :: c
    a = c * a * a
  end subroutine scale_2d

  real(8) function weight_real(v)
    real(8), intent(in) :: v
    weight_real = sin(v) + 2d0
  end function weight_real

  real(8) function weight_int(k)
    integer, intent(in) :: k
    weight_int = 1d0 / k
  end function weight_int

  function twice_vec(v) result(w)
    real(8), intent(in) :: v(:)
    real(8) :: w(size(v))
    w = 2d0 * v
  end function twice_vec
end module ops

subroutine g(n, x, y)
  use ops, only: scale_it, w => weight, twice
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: m(2, 2)
  integer :: i
  y = x
  call scale_it(y, 2d0)
  m = 1d0
  m(1, 1) = x(1)
  m(2, 1) = x(2)
  call scale_it(c=3d0, a=m)
  y(1) = y(1) + m(1, 1) * m(2, 1)
  do i = 1, n
    y(i) = y(i) * w(x(i)) + w(i)
  end do
  y = y + twice(x)
end subroutine g
