! adgen-test
! head: settle(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.2, 1.3)
! arg y: real(8)
!
! Local allocatable scalars: ALLOCATE, assignment, DEALLOCATE; one allocated by its first
! assignment (Fortran 2003), tested by allocated() in a loop to start a running product;
! allocated() after DEALLOCATE; ALLOCATE and DEALLOCATE with STAT= (allocating one twice
! fails, deallocating one not allocated fails); and one in a BLOCK inside a loop,
! unallocated again at each entry, allocated() telling the first assignment of each pass;
! allocatable scalars of types COMPLEX (allocated by its assignment too), INTEGER and
! LOGICAL.
! Before: "allocatable 's' needs its rank: s(:)".
subroutine settle(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8), allocatable :: s, run
  complex(8), allocatable :: z
  integer, allocatable :: passes
  logical, allocatable :: large
  integer :: i, j, ierr
  allocate(s)
  s = x(1) * x(2)
  y = sin(s)
  deallocate(s)
  if (allocated(s)) y = y * 10d0
  do i = 1, n
    if (.not. allocated(run)) then
      run = x(i)
    else
      run = run * x(i) + 0.1d0 * cos(x(i))
    end if
  end do
  y = y + run
  allocate(s, stat=ierr)
  s = run * x(n)
  allocate(s, stat=ierr)
  if (ierr /= 0) y = y + s
  deallocate(s, stat=ierr)
  deallocate(s, stat=ierr)
  if (ierr /= 0) y = y * 1.5d0
  do i = 1, 3
    block
      real(8), allocatable :: acc
      do j = i, n
        if (allocated(acc)) then
          acc = acc + x(j) * x(i)
        else
          acc = x(j)
        end if
      end do
      y = y + acc
    end block
  end do
  z = cmplx(x(1), y, 8)
  passes = 2
  large = y > 1d0
  if (allocated(large)) then
    if (large) y = y * 0.5d0
  end if
  y = y + passes * real(z * z)
  deallocate(z, stat=ierr)
  if (ierr /= 0) y = y * 3d0
end subroutine settle
