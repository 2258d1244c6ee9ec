! adgen-test
! head: tri_areas(a)/(x)
! arg n: integer = 4
! arg x: real(8)[3*n] = uniform(-1.0, 1.0)
! arg a: real(8)
!
! Defined operators on a derived type, as vector and geometry modules define them:
! `interface operator(-)` with a binary and a unary specific, operator(+), operator(*)
! of a real and a vector, a named operator .dot., and a generic interface `norm` whose
! specific takes the type; imported into another module by `use ..., only:` with the
! operators listed. `q - p` is read as vsub(q, p), `-v` as vneg(v). Before: "the
! operator '-' on values of a derived type ... is not supported", and a generic
! interface whose specifics take a derived type found none that fit.
module vec_ops
  implicit none
  type v3
    real(8) :: x, y, z
  end type v3
  interface operator(-)
    module procedure vsub, vneg
  end interface
  interface operator(+)
    module procedure vadd
  end interface
  interface operator(*)
    module procedure scaled
  end interface
  interface operator(.dot.)
    module procedure vdot
  end interface
  interface norm
    module procedure norm_v3
  end interface
contains
  function vsub(a, b) result(c)
    type(v3), intent(in) :: a, b
    type(v3) :: c
    c%x = a%x - b%x
    c%y = a%y - b%y
    c%z = a%z - b%z
  end function vsub

  function vneg(a) result(c)
    type(v3), intent(in) :: a
    type(v3) :: c
    c%x = -a%x
    c%y = -a%y
    c%z = -a%z
  end function vneg

  function vadd(a, b) result(c)
    type(v3), intent(in) :: a, b
    type(v3) :: c
    c%x = a%x + b%x
    c%y = a%y + b%y
    c%z = a%z + b%z
  end function vadd

  function scaled(s, a) result(c)
    real(8), intent(in) :: s
    type(v3), intent(in) :: a
    type(v3) :: c
    c%x = s * a%x
    c%y = s * a%y
    c%z = s * a%z
  end function scaled

  function vdot(a, b) result(d)
    type(v3), intent(in) :: a, b
    real(8) :: d
    d = a%x * b%x + a%y * b%y + a%z * b%z
  end function vdot

  function cross(a, b) result(c)
    type(v3), intent(in) :: a, b
    type(v3) :: c
    c%x = a%y * b%z - a%z * b%y
    c%y = a%z * b%x - a%x * b%z
    c%z = a%x * b%y - a%y * b%x
  end function cross

  function norm_v3(a) result(r)
    type(v3), intent(in) :: a
    real(8) :: r
    r = sqrt(a .dot. a)
  end function norm_v3
end module vec_ops

module geometry
  use vec_ops, only: v3, cross, norm, operator(-), operator(+), operator(*), &
                     operator(.dot.)
  implicit none
contains
  subroutine tri_areas(n, x, a)
    integer, intent(in) :: n
    real(8), intent(in) :: x(3, n)
    real(8), intent(out) :: a
    type(v3) :: p, q, r, c, m
    integer :: i
    a = 0
    do i = 1, n - 2
      p = v3(x(1, i), x(2, i), x(3, i))
      q = v3(x(1, i + 1), x(2, i + 1), x(3, i + 1))
      r = v3(x(1, i + 2), x(2, i + 2), x(3, i + 2))
      c = cross(q - p, r - p)
      m = (1d0 / 3d0) * (p + q + r)
      a = a + 0.5d0 * norm(c) + 0.1d0 * (m .dot. (-c)) + norm(-(q - r))
    end do
  end subroutine tri_areas
end module geometry
