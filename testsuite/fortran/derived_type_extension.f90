! adgen-test
! head: orbit(e)/(x w)
! arg n: integer = 3
! arg x: real(8)[3*n] = uniform(-1, 1)
! arg w: real(8) = 0.7
! arg e: real(8)
!
! Type extension (`type, extends(point) :: point3`) for plain data, three levels deep
! (body_t extends point3, which extends point): components reached directly (`b%x`, the
! parent's and the grandparent's) and through the parent components (`b%point3%point%y`),
! a parent component as a whole assigned, assigned to and passed to procedures taking the
! parent type; structure constructors given the inherited components by position and by
! keyword, or the parent component whole, by keyword (`point3(point=p, z=1d0)`) or first
! (`point3(p, 1d0)`, also a grandparent's), with default values inherited; arrays of the
! extended type, their inherited components as arrays (`bs%x`, `bs(2:n)%z`, also in
! FORALL); a module variable and a PARAMETER of an extended type; a type-bound procedure
! of the extended type, and one of the parent type reached through the parent component; a
! dummy of the extended type, its array an assumed-shape dummy.
module bodies
  implicit none
  type :: point
    real(8) :: x, y
    integer :: id = 0
  contains
    procedure :: radius
  end type point
  type, extends(point) :: point3
    real(8) :: z = 0.5d0
  end type point3
  type, extends(point3) :: body_t
    real(8) :: mass = 1d0
    real(8) :: v(3)
  contains
    procedure :: kinetic
  end type body_t
  type(point3) :: centre
  type(point3), parameter :: origin = point3(0.1d0, -0.2d0, 2, 0.3d0)
contains
  real(8) function radius(p)
    class(point), intent(in) :: p
    radius = sqrt(p%x**2 + p%y**2 + 0.01d0)
  end function radius

  real(8) function kinetic(b)
    class(body_t), intent(in) :: b
    kinetic = 0.5d0 * b%mass * sum(b%v**2)
  end function kinetic

  subroutine shift(p, dx, dy)
    type(point), intent(inout) :: p
    real(8), intent(in) :: dx, dy
    p%x = p%x + dx * p%y
    p%y = p%y - dy * sin(p%x)
  end subroutine shift

  pure real(8) function height(q)
    type(point3), intent(in) :: q
    height = q%z * cos(q%x) + q%point%y
  end function height

  subroutine step(bs, dt)
    type(body_t), intent(inout) :: bs(:)
    real(8), intent(in) :: dt
    integer :: k
    do k = 1, size(bs)
      bs(k)%x = bs(k)%x + dt * bs(k)%v(1)
      bs(k)%point3%y = bs(k)%point3%y + dt * bs(k)%v(2)
      bs(k)%z = bs(k)%z + dt * bs(k)%v(3) / bs(k)%mass
      bs(k)%v = bs(k)%v * (1d0 - 0.1d0 * dt * bs(k)%point%x**2)
    end do
  end subroutine step
end module bodies

subroutine orbit(n, x, w, e)
  use bodies
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(3 * n), w
  real(8), intent(out) :: e
  type(body_t) :: bs(n), b
  type(point3) :: q, r
  type(point) :: p
  real(8) :: hs(n)
  integer :: k
  centre = point3(w, 2 * w, 1, -w)
  do k = 1, n
    bs(k) = body_t(x(3 * k - 2), x(3 * k - 1), k, x(3 * k), 1d0 + 0.5d0 * k, [w, -w, 0.5d0])
  end do
  b = body_t(point3=centre, v=[x(1), x(2), w])
  b%point3%point%y = b%y * x(3)
  q = point3(point=point(w * x(2), x(1), 7), z=x(3) * x(3))
  p = q%point
  call shift(p, w, 0.3d0)
  q%point = p
  call shift(b%point3%point, x(1), w)
  call shift(bs(2)%point, w, x(2))
  r = b%point3
  r%z = r%z + origin%z * origin%x + origin%point%y
  q = point3(q%point, q%z + w * r%x)
  bs(n) = body_t(point(w, x(1), 3), x(2), 2d0, bs(n)%v * x(3))
  call step(bs, 0.1d0)
  bs(2:n)%z = bs(2:n)%z + bs(1:n - 1)%x * w
  forall (k = 1:n) bs(k)%y = bs(k)%y * w + bs(k)%z
  forall (k = 1:n) hs(k) = height(bs(k)%point3)
  e = sum(hs) + sum(bs%x * bs%y) + radius(q%point) + b%point3%point%radius() + &
    bs(1)%kinetic() + b%kinetic() + height(q) * height(r) + b%mass * b%z + &
    real(b%id + bs(n)%id, 8) * centre%y
end subroutine orbit
