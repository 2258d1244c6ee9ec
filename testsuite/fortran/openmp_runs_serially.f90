! adgen-test
! head: g(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)
! expect-warning: '!$omp parallel do reduction(+:y)' is not supported: the derivative code runs this loop serially (reduction(y): a dummy argument, which the C code reaches through a pointer)
!
! OpenMP the derivative code cannot keep parallel (here a reduction into a dummy argument,
! which the C code reaches through a pointer) is said, at its line, to run serially in the
! derivative code (the derivatives are right), never dropped without a word.
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
