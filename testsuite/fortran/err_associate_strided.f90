! adgen-test
! head: f(y)/(x y)
! expect-error: the array section 'x(1 : n : 2)' is not contiguous in memory: ASSOCIATE cannot give 'v' to it
! expect-error-line: 14
!
! An associate name stands for its selector's storage through a pointer to its first
! element, so a section with a stride (or a row of a matrix) is refused.
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), y
  integer :: i
  y = 0d0
  associate (v => x(1:n:2))
    do i = 1, size(v)
      y = y + v(i)**2
    end do
  end associate
end subroutine f
