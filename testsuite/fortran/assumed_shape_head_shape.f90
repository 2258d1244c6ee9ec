! adgen-test
! head: normalise(v s)/(a)
! arg m: integer = 3
! arg a: real(8)[m, 4] = uniform(0.5, 2)
! arg v: real(8)[m, 4]
! arg s: real(8)
!
! A head mixing an explicit argument (m) with assumed-shape dummies, using size() and
! shape(): a local array dimensioned by size(a, 1) and size(a, 2), shape(a) into an
! integer array bounding loops, the total size(a), and checks of m against the shape.
subroutine normalise(m, a, v, s)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: a(:, :)
  real(8), intent(out) :: v(:, :), s
  real(8) :: scaled(size(a, 1), size(a, 2))
  integer :: sh(2), i, j
  sh = shape(a)
  scaled = a / maxval(a)
  s = 0.0d0
  do j = 1, sh(2)
    do i = 1, sh(1)
      v(i, j) = scaled(i, j) * log(a(i, j)) + j
      s = s + v(i, j)**2
    end do
  end do
  if (m == size(v, 1)) then
    s = sqrt(s / size(a))
  else
    s = -1.0d0
  end if
end subroutine normalise
