! adgen-test
! head: grow(s)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg s: real(8)
!
! move_alloc, as a buffer grown while a loop runs is written in Fortran: a larger
! array allocated, the old values copied into it, then move_alloc(tmp, buf) hands
! its storage to buf (buf's old storage freed, tmp deallocated), three times over; and
! once into an unallocated array. Before: "the intrinsic subroutine 'move_alloc' is not
! supported".
subroutine grow(n, x, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  real(8), allocatable :: buf(:), tmp(:), other(:)
  integer :: i, k, m
  allocate(buf(n))
  buf = x * x
  m = n
  do k = 1, 3
    allocate(tmp(2 * m))
    tmp(1:m) = buf
    do i = m + 1, 2 * m
      tmp(i) = sin(tmp(i - m)) + x(mod(i, n) + 1)
    end do
    call move_alloc(tmp, buf)
    m = 2 * m
  end do
  call move_alloc(from=buf, to=other)
  s = 0
  do i = 1, m
    s = s + other(i) / i
  end do
  if (allocated(buf) .or. allocated(tmp)) s = -1
end subroutine grow
