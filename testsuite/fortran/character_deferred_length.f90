! adgen-test
! head: deferred_labels(y)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
!
! Deferred-length strings (`character(len=:), allocatable`) as a model's option and
! label strings: assigned from literals and expressions (which allocates them, with the
! value's length: `label = scheme // '_' // trim(other)`, from a dummy's hidden length
! too), len, len_trim, trim, substrings, comparisons, SELECT CASE, allocated() and
! DEALLOCATE, passed to a character(len=*) dummy of a procedure whose derivatives the
! option selects, then assigned another value of another length (the backward sweep
! must see the option the call saw; in a loop too, a substring changed after the call),
! and one in a BLOCK.
module deferred_tools
  implicit none
contains
  subroutine apply_limiter(kind, u, r)
    character(len=*), intent(in) :: kind
    real(8), intent(in) :: u
    real(8), intent(inout) :: r
    select case (kind)
    case ('minmod')
      r = r + min(u, 1d0) * u
    case ('superbee_x')
      r = r + sin(u) * r
    case default
      r = r * u
    end select
  end subroutine apply_limiter

  integer function tag_weight(tag)
    character(len=*), intent(in) :: tag
    tag_weight = len(tag)
    if (tag(1:4) == 'flux') tag_weight = tag_weight + 10
  end function tag_weight

  subroutine labelled(prefix, x, y)
    character(len=*), intent(in) :: prefix
    real(8), intent(in) :: x
    real(8), intent(inout) :: y
    character(len=:), allocatable :: name
    name = prefix // '_tail'
    if (len(name) == len(prefix) + 5 .and. name(len(name)-3:) == 'tail') y = y + x * x
    if (trim(name) /= 'flux_tail') y = y + 3 * x
  end subroutine labelled
end module deferred_tools

subroutine deferred_labels(n, x, y)
  use deferred_tools
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  character(len=:), allocatable :: scheme, label
  character(len=10) :: other
  integer :: i
  other = 'upwind'
  y = 0
  if (.not. allocated(label)) y = y + x(1)
  scheme = 'flux'
  label = scheme // '_' // trim(other)
  if (allocated(label)) y = y + len(label) * x(2)
  if (label == 'flux_upwind') then
    do i = 1, n
      y = y + x(i)**2
    end do
  else
    y = y + sum(x)
  end if
  y = y * tag_weight(label)
  if (len_trim(label // '   ') /= 11) y = -y
  call labelled(scheme, x(3), y)
  call labelled('edge', x(4), y)
  deallocate(label)
  if (.not. allocated(label)) y = y + 0.5d0 * x(1)
  label = 'minmod'
  do i = 1, n
    call apply_limiter(label, x(i), y)
  end do
  do i = 1, n
    if (mod(i, 2) == 0) then
      label = 'superbee_x'
    else
      label = 'minmod'
    end if
    call apply_limiter(label, x(i), y)
    label(1:1) = 'z'
  end do
  label = 'superbee_x'
  call apply_limiter(label, x(2), y)
  label = 'other'
  call apply_limiter(label, x(3), y)
  select case (label)
  case ('other')
    y = y + exp(x(1))
  case default
    y = y - 1
  end select
  block
    character(len=:), allocatable :: note
    note = label(1:3) // scheme
    if (note == 'othflux') y = y + x(4) ** 3
  end block
  scheme = 'central'
  if (scheme /= 'flux' .and. len(scheme) == 7) y = y + 2 * x(2)
end subroutine deferred_labels
