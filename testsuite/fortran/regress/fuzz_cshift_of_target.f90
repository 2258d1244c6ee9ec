! adgen-test
! head: rotate(e)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(-1, 1)
! arg e: real(8)
!
! An array assignment whose right side reads its target through cshift or transpose: the
! elements come from other positions, so the right side goes through a temporary first.
! Both were assigned in place, the later elements reading the new values (a wrong primal
! and wrong derivatives; Fortran random program 5400667).
subroutine rotate(n, x, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: e
  real(8) :: o(n), a(3, 3)
  integer :: i, j
  o = x
  o(2:n) = 0.3d0 * (x(2:n) - cshift(o(2:n), -3)) + o(2:n)
  o = cshift(o, 1) * x
  do j = 1, 3
    do i = 1, 3
      a(i, j) = x(i) * x(j + 2) + 0.1d0 * dble(i - j)
    end do
  end do
  a = transpose(a) + 0.5d0 * a
  e = sum(o ** 2) + sum(a * a(:, 1:3))
end subroutine rotate
