! adgen-test
! head: f(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! Components of sections of arrays of structures (`ps(2:n)%w`, `ps(n:1:-2)%v`,
! `grid(2, :)%v`, `grid(1:3:2, 2)%w`): arrays of the section's shape, read and assigned,
! one assigned a value that reads the structures it assigns (through a temporary).
module m
  type :: p_t
    real(8) :: v
    real(8) :: w
  end type
end module
subroutine f(n, x, y)
  use m
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  type(p_t) :: ps(n), grid(3, n)
  integer :: i
  ps%v = x
  ps%w = 0
  ps(2:n)%w = ps(1:n-1)%v * 2
  ps(n:1:-2)%v = ps(n:1:-2)%v + ps(1:n:2)%w
  grid%v = 1
  grid%w = 0
  grid(2, :)%v = x
  grid(1:3:2, 2)%w = x(1:2)
  y = sum(ps%v * [(dble(i), i = 1, n)]) + sum(ps(2:)%w**3) + sum(grid(2, 2:n)%v**2) + &
      sum(grid(3, :)%w)
end subroutine
