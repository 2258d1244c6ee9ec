! A type extended twice, whose parent ends in an integer: gfortran lays a parent out
! whole, padding included, before the components an extension adds (a flat layout would
! put 'tag' 4 bytes earlier). The head advance(b, fleet)/(b fleet) takes a structure of
! the last extension and an array of the first (tests/test_fortran.py,
! test_extended_type_head).
module bodies
  implicit none
  type :: point
    real(8) :: x
    integer :: n
  end type point
  type, extends(point) :: point2
    integer :: tag
    real(8) :: y(2)
  end type point2
  type, extends(point2) :: body_t
    real(8) :: mass
  end type body_t
contains
  subroutine advance(b, fleet, dt)
    type(body_t), intent(inout) :: b
    type(point2), intent(inout) :: fleet(3)
    real(8), intent(in) :: dt
    integer :: k
    do k = 1, 3
      fleet(k)%x = fleet(k)%x + dt * fleet(k)%y(1) * b%point2%point%x
      fleet(k)%y(2) = fleet(k)%y(2) * cos(dt * fleet(k)%x) + b%mass * fleet(k)%tag
    end do
    b%y = b%y + dt * [fleet(1)%x, fleet(3)%point%x] / b%mass
    b%point%x = b%x * (1d0 + dt * b%y(2)) + b%n
    b%mass = b%mass * exp(-dt * b%point2%y(1)**2)
  end subroutine advance

  real(8) function dot(a, fa, b, fb)
    type(body_t), intent(in) :: a, b
    type(point2), intent(in) :: fa(3), fb(3)
    integer :: k
    dot = a%x * b%x + sum(a%y * b%y) + a%mass * b%mass
    do k = 1, 3
      dot = dot + fa(k)%x * fb(k)%x + sum(fa(k)%y * fb(k)%y)
    end do
  end function dot

  subroutine axpy(a, x, fx, y, fy, r, fr)
    real(8), intent(in) :: a
    type(body_t), intent(in) :: x, y
    type(point2), intent(in) :: fx(3), fy(3)
    type(body_t), intent(out) :: r
    type(point2), intent(out) :: fr(3)
    integer :: k
    r = y
    r%x = y%x + a * x%x
    r%y = y%y + a * x%y
    r%mass = y%mass + a * x%mass
    do k = 1, 3
      fr(k) = fy(k)
      fr(k)%x = fy(k)%x + a * fx(k)%x
      fr(k)%y = fy(k)%y + a * fx(k)%y
    end do
  end subroutine axpy

  subroutine filled(b, fleet, seed)
    type(body_t), intent(out) :: b
    type(point2), intent(out) :: fleet(3)
    real(8), intent(in) :: seed
    integer :: k
    b = body_t(0.4d0 + seed, 2, 5, [sin(seed), cos(seed)], 1.5d0 + seed)
    do k = 1, 3
      fleet(k) = point2(point=point(0.3d0 * k * seed, k), tag=k + 1, &
                        y=[cos(seed * k), 0.2d0 * seed])
    end do
  end subroutine filled
end module bodies
