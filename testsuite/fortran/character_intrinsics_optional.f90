! adgen-test
! head: tuned(y)/(x)
! arg n: integer = 3
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! More of what programs do with CHARACTER strings: index (with BACK), adjustl and
! adjustr, an OPTIONAL CHARACTER dummy (given, left out: its hidden length is then 0, as
! gfortran passes it; present() tells), and local strings with an initial value (SAVEd:
! a static variable of the output, its own, initialized as the source says).
module tuning
  implicit none
contains
  subroutine apply(n, x, y, mode, label)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(inout) :: y
    character(len=*), intent(in) :: mode
    character(len=*), intent(in), optional :: label
    character(len=10) :: last
    character(len=6) :: unset = 'none'
    integer :: i
    do i = 1, n
      if (index(mode, 'sq') > 0) y = y + x(i)**2
      if (index(mode, 'a', back=.true.) == len_trim(mode)) y = y + 3 * x(i)
    end do
    if (present(label)) then
      if (adjustl(label) == 'tag') y = y * 2
      y = y + index(label, 'g') + len(label)
    else
      y = y + 0.5d0
    end if
    if (unset == 'none' .and. len(unset) == 6) y = y - 1
    last = adjustr(mode)
    if (last(1:3) == '   ') y = y + sin(x(1))
  end subroutine apply
end module tuning

subroutine tuned(n, x, y)
  use tuning
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  character(len=8) :: pad = '  tag'
  y = 0
  call apply(n, x, y, 'sq')
  call apply(n, x, y, 'sqa   ', pad)
  call apply(n, x, y, 'lin', label=' tag ')
end subroutine tuned
