! adgen-test
! head: fit_cost(cost)/(c w)
! arg n: integer = 6
! arg m: integer = 3
! arg x: real(8)[n] = uniform(-1, 1)
! arg c: real(8)[m] = uniform(-1, 1)
! arg w: real(8) = 0.7
! arg cost: real(8) = 0
!
! Tapenade's `!$AD II-LOOP` before a DO loop whose iterations each fill their own
! scratch array (a local of fixed size) and add into the cost: the adjoint reverses each
! iteration right after running it. The polynomial's coefficients (an array dummy) and
! the weight (a scalar dummy) have their adjoints gathered across the loop.
subroutine fit_cost(n, m, x, c, w, cost)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: x(n), c(m), w
  real(8), intent(out) :: cost
  real(8) :: powers(3), r
  integer :: i, j
  cost = 0.0d0
  !$AD II-LOOP
  do i = 1, n
    powers(1) = 1.0d0
    do j = 2, m
      powers(j) = powers(j - 1) * x(i)
    end do
    r = sum(c(1:m) * powers(1:m)) - cos(x(i))
    cost = cost + w * r * r
  end do
  cost = cost * cost
end subroutine fit_cost
