! adgen-test
! head: run(e)/(x)
! arg n: integer = 3
! arg x: real(8)[2*n] = uniform(-1, 1)
! arg e: real(8)
!
! Components of whole arrays of structures in array expressions (`c%s%rho`, `ps%vol`):
! arrays of the structures' shape whose element k is the component of element k, read
! and assigned (also under WHERE), of an explicit-shape, an assumed-shape and an
! allocatable rank-2 array of structures, through a nested structure, in reductions; passed
! as arguments through copies (copied back after a CALL whose dummy is not INTENT(IN)).
module cells
  implicit none
  type :: state_t
    real(8) :: rho
    real(8) :: mom
  end type
  type :: cell_t
    type(state_t) :: s
    real(8) :: vol
  end type
contains
  subroutine update(m, c, dt)
    integer, intent(in) :: m
    type(cell_t), intent(inout) :: c(m, 2)
    real(8), intent(in) :: dt
    c%s%rho = c%s%rho - dt * c%s%mom / c%vol
    c%s%mom = c%s%mom * (1 - dt)
  end subroutine
  subroutine damp(m, r)
    integer, intent(in) :: m
    real(8), intent(inout) :: r(m)
    r = r * (1 - 0.1d0 * r)
  end subroutine damp
  real(8) function weighted(m, r)
    integer, intent(in) :: m
    real(8), intent(in) :: r(m)
    integer :: i
    weighted = 0
    do i = 1, m
      weighted = weighted + i * r(i)
    end do
  end function
  real(8) function total(ps)
    type(cell_t), intent(in) :: ps(:)
    total = sum(ps%s%rho * ps%vol)
  end function
end module
subroutine run(n, x, e)
  use cells
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(2 * n)
  real(8), intent(out) :: e
  type(cell_t), allocatable :: c(:, :)
  type(cell_t) :: line(2 * n)
  integer :: k
  allocate(c(n, 2))
  c%vol = 1.5d0
  c%s%rho = reshape(x, [n, 2]) + 2
  c%s%mom = reshape(x, [n, 2]) ** 2
  do k = 1, 4
    call update(n, c, 0.1d0)
  end do
  line = reshape(c, [2 * n])
  e = sum(c%s%rho ** 2) + total(line) + minval(c%s%mom)
  line%vol = [(1d0 + 0.5d0 * k, k = 1, 2 * n)]
  where (line%s%mom > 0.1d0) line%s%rho = line%s%rho * line%vol
  e = e + dot_product(line%s%rho, line%s%mom) + maxval(line%vol) * size(line%vol)
  call damp(2 * n, line%s%mom)
  e = e + weighted(2 * n, line%s%mom) * weighted(2 * n, line%vol)
end subroutine
