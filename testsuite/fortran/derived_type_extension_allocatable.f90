! adgen-test
! head: relax(y)/(a)
! arg n: integer = 4
! arg a: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! Type extension with inherited allocatable components: allocated, assigned and read
! directly (`g%u`) and through the parent component (`g%grid_t%u`), passed to a procedure;
! an extension in another module of a parent type imported under another name (`use
! fields, only: base_t => grid_t`: the parent component is `base_t`); an extension of a
! type defined inside a procedure, built by a structure constructor.
module fields
  implicit none
  type :: grid_t
    real(8), allocatable :: u(:)
    real(8) :: h = 0.25d0
  end type grid_t
  type, extends(grid_t) :: grid2_t
    real(8) :: k
  end type grid2_t
contains
  subroutine smooth(m, v, c)
    integer, intent(in) :: m
    real(8), intent(inout) :: v(m)
    real(8), intent(in) :: c
    v(2:m) = v(2:m) + c * v(1:m - 1)**2
  end subroutine smooth
end module fields

module weighted
  use fields, only: base_t => grid_t
  implicit none
  type, extends(base_t) :: weighted_t
    real(8) :: weight
  end type weighted_t
end module weighted

subroutine relax(n, a, y)
  use fields
  use weighted
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: y
  type(grid2_t) :: g
  type(weighted_t) :: wt
  type :: local_t
    real(8) :: w
  end type local_t
  type, extends(local_t) :: local2_t
    real(8) :: v
  end type local2_t
  type(local2_t) :: l
  allocate(g%u(n))
  g%u = a * 2
  g%k = 0.5d0 + a(2)**2
  call smooth(n, g%grid_t%u, g%h)
  allocate(wt%base_t%u(n))
  wt%u = cos(g%u)
  wt%weight = g%k
  wt%base_t%h = a(3)
  l = local2_t(a(2), a(1))
  y = sum(g%grid_t%u * g%u) * g%k + g%h + l%w * l%local_t%w * l%v + &
    wt%weight * sum(wt%u) * wt%h
  deallocate(g%u, wt%u)
end subroutine relax
