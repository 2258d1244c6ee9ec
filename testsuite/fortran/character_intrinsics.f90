! adgen-test
! head: scheme_cost(c)/(u)
! arg n: integer = 4
! arg u: real(8)[n] = uniform(0.5, 1.5)
! arg c: real(8)
!
! The CHARACTER intrinsics of option handling, which carry no derivative but choose the
! arithmetic: an option upper-cased through iachar and achar, a ruler built with repeat,
! PARAMETER strings made of concatenations, repeat, char and trim of constants, a key
! built from char(), ichar of a key's first letter, new_line. Each branch scales the cost
! by its own factor, so a string computed wrong gives a wrong gradient.
module scheme_options
  implicit none
  character(len=*), parameter :: upwind = 'UP' // 'WIND'
  character(len=*), parameter :: ruler = repeat('-', 4) // '+'
  character(len=*), parameter :: abc = char(65) // achar(66) // trim('C   ')
  character(len=8), parameter :: keys(2) = [character(len=8) :: 'CENT' // 'RAL', repeat('Z', 3)]
contains
  subroutine to_upper(s)
    character(len=*), intent(inout) :: s
    integer :: i, code
    do i = 1, len(s)
      code = iachar(s(i:i))
      if (code >= iachar('a') .and. code <= iachar('z')) s(i:i) = achar(code - 32)
    end do
  end subroutine

  real(8) function factor(opt)
    character(len=*), intent(in) :: opt
    character(len=12) :: name
    character(len=10) :: line
    name = opt
    call to_upper(name)
    line = repeat(name(1:2), 2) // repeat('.', 3)
    factor = 1.0d0
    if (name == upwind) factor = 2.0d0
    if (name == keys(1)) factor = 3.0d0
    if (line == 'UPUP...') factor = factor + 0.5d0
    if (len(ruler) == 5 .and. ruler(5:5) == '+') factor = factor * 1.25d0
    if (abc == 'ABC' .and. ichar(name(1:1)) == 67) factor = factor + 0.125d0
    if (name(1:1) == char(iachar('U'))) factor = factor + 1.0d0
    if (new_line('a') == achar(10)) factor = factor * 2.0d0
  end function

  subroutine scheme_cost(n, u, c)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    real(8), intent(out) :: c
    integer :: i
    c = 0.0d0
    do i = 1, n
      c = c + factor('upwind') * u(i) ** 2 + factor('Central') * sin(u(i)) + &
          factor(keys(2)) * u(i) ** 3
    end do
  end subroutine
end module
