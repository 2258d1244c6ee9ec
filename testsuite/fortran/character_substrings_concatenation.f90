! adgen-test
! head: text_options(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! CHARACTER strings built and taken apart, as physics codes do with names and
! messages: concatenation (//) of literals, parameters, variables, trim() and substrings,
! in assignments, comparisons, len(), SELECT CASE and arguments (an assumed-length
! dummy passed on with more text: its temporary sized by the hidden length); substrings
! s(i:j), s(i:), s(:j) read and assigned, one assigned a value that reads its own
! variable (Fortran evaluates the right-hand side first); a CHARACTER component of a
! derived type. Each test changes y, so the primal checks what every string holds.
module text_tools
  implicit none
  type :: method_t
    character(len=12) :: name
    real(8) :: weight
  end type method_t
  character(len=*), parameter :: prefix = 'scheme_'
contains
  subroutine note(msg, count)
    character(len=*), intent(in) :: msg
    integer, intent(inout) :: count
    count = count + len_trim(msg)
    if (msg(len(msg):) == '!') count = count + 100
  end subroutine note

  subroutine tagged(tag, count)
    character(len=*), intent(in) :: tag
    integer, intent(inout) :: count
    call note('<' // tag // '>', count)
    if (tag // 'x' == 'lowx') count = count + 1000
  end subroutine tagged

  function weight_of(tag) result(w)
    character(len=*), intent(in) :: tag
    real(8) :: w
    select case (tag(1:3))
    case ('low')
      w = 0.5d0
    case ('hig')
      w = 2d0
    case default
      w = 1d0
    end select
  end function weight_of
end module text_tools

subroutine text_options(n, x, y)
  use text_tools
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  type(method_t) :: m
  character(len=20) :: full, word
  character(len=3) :: short
  integer :: count, i
  count = 0
  m%name = 'high_order'
  m%weight = weight_of(m%name)
  full = prefix // trim(m%name)
  call note(full(8:) // '!', count)
  call tagged('low', count)
  call tagged(m%name(:4), count)
  word = full
  word(1:6) = 'SCHEME'
  word(3:) = word
  short = word(3:)
  select case (trim(short) // '-' // m%name(6:))
  case ('SCH-order')
    count = count + 10000
  case default
    count = count - 1
  end select
  y = 0
  do i = 1, n
    if (full(8:11) == 'high') y = y + m%weight * x(i)**2
    if (word(1:4) == 'SCSC' .and. word(5:) == 'HEME_high_order') y = y + sin(x(i))
    if (len(trim(full) // '_' // word(:2)) == 20) y = y + count * x(i)
    if (prefix(i:i) >= 'h') y = y + x(i) * i
  end do
end subroutine text_options
