! adgen-test
! head: exits(f)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = [0.3d0, 0.9d0, 0.45d0, 1.1d0]
! arg f: real(8)
!
! What a construct allocates is freed on every way out of it: a BLOCK's allocatable array
! left by CYCLE, EXIT, EXIT of an outer named loop, a GOTO, a computed GOTO and RETURN; the arrays an IF or ELSE IF
! condition, an IF statement, a SELECT CASE selector and a DO loop's bounds build on the
! heap (array constructors of an allocatable array) left by CYCLE, EXIT, a GOTO and
! RETURN; a DO WHILE test's, built again at each pass, and an ELSE IF condition's, built
! only when the IF condition fails (both freed once the condition is evaluated). Before, each of these exits lost
! the block (the end of the construct frees it, the exit jumped past it).
subroutine exits(n, x, f)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: f
  integer :: i, j, k
  real(8), allocatable :: w(:)
  allocate(w(n))
  w = x
  f = 0d0
  outer: do j = 1, 3
    do i = 1, n
      block
        real(8), allocatable :: t(:)
        allocate(t(i))
        t = x(1:i) * j
        if (i == 2) cycle
        if (j == 2 .and. i == 3) cycle outer
        f = f + sum(t ** 2) * 0.1d0
        if (j == 3 .and. i == 3) exit outer
        if (i == n) exit
        if (f > 1d6) goto 10
        k = merge(1, 2, f > 1d5)
        go to (10, 11) k
11      f = f + t(1)
      end block
    end do
  end do outer
10 continue
  do i = 1, n
    if (sum([w, x(i)]) > 0d0) then
      if (i == 2) cycle
      f = f + w(i) * x(i)
    else if (sum([x(i), w]) > -1d0) then
      exit
    end if
    select case (count([w, x(i)] > 0.5d0))
    case (0)
      exit
    case (1:3)
      f = f + x(i) ** 2
      cycle
    case default
      f = f + sin(x(i))
    end select
    do k = 1, count([w, 1d0] > 0d0)
      if (k == 2) exit
      f = f + cos(x(i) * k)
    end do
  end do
  do i = 1, n
    if (sum([w(i:i), -0.7d0]) > 0d0) then
      f = f + x(i)
    else if (sum([w, x(i)]) > 0d0) then
      f = f - x(i) ** 2
    end if
  end do
  k = 0
  do while (sum([w, f]) < 1d3 .and. k < 3)
    k = k + 1
    f = f + x(k) * w(k)
  end do
  if (sum([w, f]) > 1d0) then
    if (f > 1d6) goto 20
    f = f * 0.5d0
  end if
  do i = 1, count([w, f] > 0d0)
    f = f + x(1) * i
    if (i == 2) then
      if (sum([w, x]) > 1d2) return
    end if
  end do
20 continue
  block
    real(8), allocatable :: v(:)
    v = x * 3d0
    f = f + v(2)
    if (f > 0d0) return
  end block
  f = f + 1d0
end subroutine exits
