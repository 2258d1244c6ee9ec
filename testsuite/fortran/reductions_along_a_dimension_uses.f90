! adgen-test
! head: outer(e)/(a)
! arg n: integer = 4
! arg m: integer = 3
! arg a: real(8)[n, m] = uniform(-1, 1)
! arg e: real(8)
!
! SUM and MAXVAL with DIM of a matrix passed as an argument (through a temporary), assigned to
! a section, in a WHERE mask, and assigned to a row of the array it reads.
module m_rd
  implicit none
contains
  subroutine acc(k, v, s)
    integer, intent(in) :: k
    real(8), intent(in) :: v(k)
    real(8), intent(inout) :: s
    s = s + sum(v ** 3)
  end subroutine acc
end module m_rd

subroutine outer(n, m, a, e)
  use m_rd
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(n, m)
  real(8), intent(out) :: e
  real(8) :: c(m), b(n, m)
  e = 0d0
  call acc(m, sum(a, dim=1) * 0.5d0, e)
  c = 0d0
  c(2:m) = sum(a(:, 2:m) ** 2, 1)
  where (sum(a, 1) > 0d0)
    c = c + maxval(a, 1)
  end where
  b = a
  b(1, :) = sum(b, dim=1)
  e = e + sum(c) + sum(b)
end subroutine outer
