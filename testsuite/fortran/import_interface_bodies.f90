! adgen-test
! head: model(r)/(a b c)
! arg a: real(8) = 0.3
! arg b: real(8) = 1.4
! arg c: real(8)[3] = uniform(0.5, 1.5)
! arg r: real(8)
!
! Interface bodies that IMPORT their host's names, as modern libraries write them: an
! abstract interface importing a kind parameter (`import :: wp`), an interface block for a
! dummy procedure importing every host name (`import`), and one importing a kind and a
! derived type. The integrator and the quadrature take the functions they call as
! procedure arguments.
module kinds
  implicit none
  integer, parameter :: wp = kind(1.0d0)
  integer, parameter :: ncoef = 3
end module kinds

module quadrature
  use kinds
  implicit none
  type :: poly_t
    real(wp) :: coef(ncoef)
  end type poly_t
  abstract interface
    function integrand(x) result(y)
      import :: wp
      real(wp), intent(in) :: x
      real(wp) :: y
    end function integrand
  end interface
contains
  function trapezoid(f, a, b, n) result(s)
    procedure(integrand) :: f
    real(wp), intent(in) :: a, b
    integer, intent(in) :: n
    real(wp) :: s, h
    integer :: i
    h = (b - a) / n
    s = 0.5_wp * (f(a) + f(b))
    do i = 1, n - 1
      s = s + f(a + i * h)
    end do
    s = s * h
  end function trapezoid

  function weighted(g, p, x) result(y)
    interface
      function g(p, x) result(v)
        import :: wp, poly_t
        type(poly_t), intent(in) :: p
        real(wp), intent(in) :: x
        real(wp) :: v
      end function g
    end interface
    type(poly_t), intent(in) :: p
    real(wp), intent(in) :: x
    real(wp) :: y
    y = g(p, x) * x
  end function weighted

  subroutine apply(h, x, y)
    interface
      subroutine h(x, y)
        import
        real(wp), intent(in) :: x
        real(wp), intent(out) :: y
      end subroutine h
    end interface
    real(wp), intent(in) :: x
    real(wp), intent(out) :: y
    call h(x, y)
  end subroutine apply

  function bump(x) result(y)
    real(wp), intent(in) :: x
    real(wp) :: y
    y = exp(-x * x) + x
  end function bump

  function horner(p, x) result(v)
    type(poly_t), intent(in) :: p
    real(wp), intent(in) :: x
    real(wp) :: v
    integer :: k
    v = 0.0_wp
    do k = ncoef, 1, -1
      v = v * x + p%coef(k)
    end do
  end function horner

  subroutine cube(x, y)
    real(wp), intent(in) :: x
    real(wp), intent(out) :: y
    y = x ** 3
  end subroutine cube

  subroutine model(a, b, c, r)
    real(wp), intent(in) :: a, b, c(ncoef)
    real(wp), intent(out) :: r
    type(poly_t) :: p
    real(wp) :: t
    p%coef = c
    call apply(cube, a, t)
    r = trapezoid(bump, a, b, 8) + weighted(horner, p, b) + t
  end subroutine model
end module quadrature
