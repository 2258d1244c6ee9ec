! adgen-test
! head: simulate(e)/(x0 g)
! arg n: integer = 6
! arg x0: real(8)[3*n] = uniform(-1, 1)
! arg g: real(8)[3] = uniform(-2, 2)
! arg e: real(8)
! setup: setup_field
!
! Derived types: particles (position, velocity and mass components, arrays of rank 1)
! inside a cloud (an array of particles) are pushed by gravity and drag. The cloud is a
! local structure; a module variable of the same type, set by the setup routine, holds
! the masses and a reference field. Components are read and assigned as scalars, elements,
! whole arrays and sections, under WHERE and through ASSOCIATE; structures and arrays of
! them are passed to procedures (a function of one particle, a subroutine pushing them
! all), and an internal procedure changes its host's structure.
module particle_mod
  implicit none
  type :: particle
    real(8) :: x(3), v(3)
    real(8) :: mass
  end type particle
  type :: cloud_t
    integer :: np
    type(particle) :: p(8)
  end type cloud_t
  type(cloud_t) :: field_cloud
contains
  subroutine setup_field()
    integer :: k
    field_cloud%np = 8
    do k = 1, 8
      field_cloud%p(k)%x = [0.1d0 * k, -0.2d0 * k, 0.3d0]
      field_cloud%p(k)%mass = 1.0d0 + 0.5d0 * k
    end do
  end subroutine setup_field

  pure function kinetic(p) result(en)
    type(particle), intent(in) :: p
    real(8) :: en
    en = 0.5d0 * p%mass * dot_product(p%v, p%v)
  end function kinetic

  subroutine push(parts, n, dt, g)
    integer, intent(in) :: n
    type(particle), intent(inout) :: parts(n)
    real(8), intent(in) :: dt, g(3)
    integer :: k
    do k = 1, n
      associate (pk => parts(k))
        pk%v = pk%v + dt * g / pk%mass
        pk%x(1:3) = pk%x(1:3) + dt * pk%v
      end associate
      where (parts(k)%x < 0.0d0) parts(k)%v = -0.5d0 * parts(k)%v
    end do
  end subroutine push

  subroutine simulate(n, x0, g, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x0(3, n), g(3)
    real(8), intent(out) :: e
    type(cloud_t) :: c
    integer :: k, step
    c%np = n
    do k = 1, c%np
      c%p(k)%x = x0(:, k)
      c%p(k)%v = 0.0d0
      c%p(k)%mass = field_cloud%p(k)%mass
    end do
    do step = 1, 4
      call push(c%p, c%np, 0.05d0, g)
      call drag()
    end do
    e = 0.0d0
    do k = 1, c%np
      e = e + kinetic(c%p(k)) + sum(c%p(k)%x * field_cloud%p(k)%x)
    end do
  contains
    subroutine drag()
      integer :: j
      do j = 1, c%np
        c%p(j)%v(2) = c%p(j)%v(2) * (1.0d0 - 0.1d0 * c%p(j)%x(1)**2)
      end do
    end subroutine drag
  end subroutine simulate
end module particle_mod
