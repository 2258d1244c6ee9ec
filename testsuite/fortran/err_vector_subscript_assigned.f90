! adgen-test
! head: scatter(u)/(g)
! arg n: integer = 4
! arg m: integer = 3
! arg g: real(8)[m] = uniform(-1, 1)
! arg idx: integer[m] = {4, 1, 3}
! arg u: real(8)[n]
! expect-error: vector subscript of 'u'
! expect-error-line: 22
!
! Must be refused: an assignment to a section with a vector subscript (a scatter, u(idx)
! = ...); vector subscripts are supported in expressions only.
subroutine scatter(n, m, g, idx, u)
  implicit none
  integer, intent(in) :: n, m, idx(m)
  real(8), intent(in) :: g(m)
  real(8), intent(out) :: u(n)
  integer :: i
  do i = 1, n
    u(i) = 0.0d0
  end do
  u(idx) = g * 2.0d0
end subroutine scatter
