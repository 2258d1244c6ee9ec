! adgen-test
! head: f(y)/(x)
! expect-error: the SAVEd allocatable array 'acc' keeps its allocation and values from one call of 'f' to the next
! expect-error-line: 13
!
! Must be refused: a SAVEd allocatable array allocated on the first call and accumulated
! into on each (SAVE stated apart from its declaration): the output would start it
! unallocated on every call, and so differentiate another state than the program's.
subroutine f(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), allocatable :: acc(:)
  save :: acc
  if (.not. allocated(acc)) then
    allocate(acc(n))
    acc = 0d0
  end if
  acc = acc + x
  y = sum(acc * x)
end subroutine f
