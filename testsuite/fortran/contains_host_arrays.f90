! adgen-test
! head: fit_cost(cost)/(x p)
! arg n: integer = 5
! arg m: integer = 3
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg p: real(8)[0:m, 2] = uniform(-1, 1)
! arg cost: real(8)
!
! Internal procedures (contains) using the host's arrays by host association: a dummy
! x(n) (elements, sections, whole-array operations, size), a two-dimensional dummy with
! a lower bound of 0 and a variable extent, a local work array the internal procedure
! writes, a module array the host uses (a section of it), and an internal procedure
! calling another one declared after it, which uses host variables of its own.
module fit_data
  implicit none
  real(8) :: targets(50)
contains
  subroutine fit_setup()
    integer :: i
    do i = 1, 50
      targets(i) = 0.1d0 * i
    end do
  end subroutine fit_setup
end module fit_data

subroutine fit_cost(n, m, x, p, cost)
  use fit_data, only: targets, fit_setup
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: x(n), p(0:m, 2)
  real(8), intent(out) :: cost
  real(8) :: w(n), scale
  integer :: i
  call fit_setup()
  scale = 0.5d0
  call weights()
  cost = misfit() + poly_term()
  do i = 1, n
    cost = cost + w(i) * x(i)
  end do
contains
  subroutine weights()
    integer :: j
    do j = 1, size(x)
      w(j) = scale * x(j)**2
    end do
    w(2:n) = w(2:n) + 0.25d0 * w(1:n-1)
  end subroutine weights

  real(8) function misfit()
    misfit = sum((x - targets(1:n))**2) + x(2) * w(3) + maxval(w) * sum(x(1:n:2))
  end function misfit

  real(8) function poly_term()
    poly_term = outer_sum()
  end function poly_term

  real(8) function outer_sum()
    integer :: k
    outer_sum = 0.0d0
    do k = 0, m
      outer_sum = outer_sum + p(k, 1) * p(k, 2) * x(1 + mod(k, n))
    end do
    outer_sum = outer_sum + sum(p(:, 2)**2) * scale
  end function outer_sum
end subroutine fit_cost
