! adgen-test
! head: g(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
! expect-warning: '!$omp parallel do reduction(+:y)' is not supported yet: the derivative code runs this part serially
!
! OpenMP directives are not supported yet: each is said, at its line, to run serially in
! the derivative code (the derivatives are right), never dropped without a word.
subroutine g(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i
  y = 0
  !$omp parallel do reduction(+:y)
  do i = 1, n
    y = y + x(i)**2 + sin(x(i))
  end do
  !$omp end parallel do
end subroutine g
