! adgen-test
! head: energy(e)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(-1.0, 1.0)
! arg e: real(8)
!
! PRIVATE module procedures (a bare `private` with a `public ::` list, and a `private
! ::` list) called from the public head: a report on integers only, which the derivative
! code runs as it is, one on integers it differentiates around, and one differentiated.
! gfortran gives a PRIVATE procedure a symbol its module's object keeps to itself (`t
! __springs_MOD_report`), so the output runs its own copy of it. Before, the output
! called `__springs_MOD_report` and did not link.
module springs
  implicit none
  private
  public :: energy
  private :: stretch
contains
  subroutine report(k)
    integer, intent(in) :: k
    if (k < 0) print *, 'no springs'
  end subroutine report

  subroutine weight_of(i, n, w)
    integer, intent(in) :: i, n
    integer, intent(out) :: w
    w = 1 + mod(i * 7, n)
  end subroutine weight_of

  function stretch(a, b) result(s)
    real(8), intent(in) :: a, b
    real(8) :: s
    s = (b - a) ** 2 + 0.1d0 * sin(a * b)
  end function stretch

  subroutine energy(n, x, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: e
    integer :: i, w
    call report(n - 1)
    e = 0
    do i = 1, n - 1
      call weight_of(i, n, w)
      e = e + w * stretch(x(i), x(i + 1))
    end do
  end subroutine energy
end module springs
