! adgen-test
! head: switchable(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg use_log: logical = .true.
! arg mask: logical[n] = [.true., .false., .true., .true., .false.]
! arg y: real(8)[n]
! head: switchable(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg use_log: logical = .false.
! arg mask: logical[n] = [.false., .true., .true., .false., .true.]
! arg y: real(8)[n]
!
! Logical arguments (a scalar and an array), logical locals and operators
! (.and. .or. .not. .eqv. .neqv.), a logical array as a WHERE mask.
! The same head with two sets of argument values.
subroutine switchable(n, x, use_log, mask, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  logical, intent(in) :: use_log, mask(n)
  real(8), intent(out) :: y(n)
  logical :: big
  integer :: i
  do i = 1, n
    big = x(i) > 1.0d0
    if (use_log .and. (mask(i) .or. big)) then
      y(i) = log(x(i)) * x(i)
    else if (.not. use_log .and. (mask(i) .eqv. big)) then
      y(i) = x(i)**2
    else if (mask(i) .neqv. use_log) then
      y(i) = sqrt(x(i))
    else
      y(i) = -x(i)
    end if
  end do
  if (use_log) then
    where (mask) y = y * 2.0d0
  else
    where (.not. mask) y = y * 0.5d0
  end if
end subroutine switchable
