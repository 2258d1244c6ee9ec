! adgen-test
! head: march(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)[n]
!
! A checkpointed loop calls a subroutine that changes its OPTIONAL array when given one; the
! call leaves it out, so the loop's state holds no memory behind the null pointer (it was
! refused: "writes memory that is not reached through a parameter").
module steps
  implicit none
contains
  subroutine relax(m, u, o, w)
    integer, intent(in) :: m
    real(8), intent(in) :: u(m)
    real(8), intent(inout) :: o(m)
    real(8), intent(inout), optional :: w(m)
    o = 0.5d0 * o + 0.25d0 * sin(u)
    if (present(w)) w = 0.5d0 * w + 0.25d0 * sin(u)
    if (present(w)) o(m) = o(m) + 0.25d0 * w(1)
  end subroutine relax
end module steps

subroutine march(n, x, y)
  use steps
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  integer :: t
  y = x
  !$AD BINOMIAL-CKP 12 3 1
  do t = 1, 12
    call relax(n, x, y)
    y(1) = y(1) + 0.1d0 * y(n)
  end do
end subroutine march
