! adgen-test
! head: shape_cost(f)/(a x)
! arg m: integer = 4
! arg a: real(8)[m, 3] = uniform(0.5, 1.5)
! arg x: real(8)[m] = uniform(0.2, 1.2)
! arg f: real(8)
!
! ASSOCIATE names for array expressions, each a value of the expression's shape (lower
! bounds 1) evaluated once on entry: of a vector, read whole and by element; of a block of
! columns of a matrix times a scalar; one reading a reduction (`x / sum(x)`); the result
! of a function returning an array, of matmul and of an array constructor; an integer
! expression (its divisions stay integer divisions); one whose variable the construct
! then changes (the name keeps the entry value); a section of another associate name's
! value; one inside a loop, evaluated again at each pass; ones left by EXIT, CYCLE (also
! of an outer named loop) and RETURN, which free its array. Before: "ASSOCIATE of 'v'
! with an array expression is not supported".
module assoc_values
  implicit none
contains
  function damped(m, x) result(d)
    integer, intent(in) :: m
    real(8), intent(in) :: x(m)
    real(8) :: d(m)
    d = x * exp(-x)
  end function damped
end module assoc_values

subroutine shape_cost(m, a, x, f)
  use assoc_values, only: damped
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: a(m, 3), x(m)
  real(8), intent(out) :: f
  real(8) :: w(m)
  integer :: i, j, ix(m)
  f = 0d0
  associate (v => x * 2d0 + 1d0)
    f = sum(v * v) + v(1) * v(m)
    associate (dv => v(2:) - v(:m - 1))
      f = f + sum(dv ** 2) / size(dv)
    end associate
  end associate
  associate (c => a(:, 2:3) * x(1), frac => x / sum(x))
    do j = 1, 2
      do i = 1, m
        f = f + c(i, j) * frac(i)
      end do
    end do
  end associate
  associate (d => damped(m, x))
    f = f + dot_product(d, a(:, 1))
  end associate
  associate (ax => matmul(a, x(1:3)), q => [x(1), 2d0 * x(m)])
    f = f + sum(ax * x) * product(q)
  end associate
  do i = 1, m
    ix(i) = 2 * i + 1
  end do
  associate (half => ix / 2)
    do i = 1, m
      f = f + half(i) * x(i)
    end do
  end associate
  w = x
  associate (old => w * 1d0)
    w = w * old(m)
    f = f + sum(old * w)
  end associate
  do j = 1, 3
    associate (col => a(:, j) ** 2 + x)
      f = f + maxval(col) * minval(col) * j
    end associate
  end do
  outer: do j = 1, 3
    do i = 1, m
      associate (g => x * i - a(:, j))
        if (i == 2) cycle
        if (j == 2 .and. i == 3) cycle outer
        f = f + sum(g) * 0.1d0
        if (j == 3 .and. i == 3) exit outer
        if (i == m) exit
      end associate
    end do
  end do outer
  associate (r => x * f)
    if (r(1) > 1d10) return
    f = f + sum(r) * 1d-3
  end associate
end subroutine shape_cost
