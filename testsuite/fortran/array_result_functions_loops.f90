! adgen-test
! head: g(s z)/(x z)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(-1, 1)
! arg z: real(8)[n, 2] = uniform(-1, 1)
! arg s: real(8)
!
! Functions that return arrays, in a loop: a rank-2 result with lower bounds 0 that
! returns early (RETURN), one that calls another, references in a WHERE mask, as a
! CALL argument (an INTENT(IN) assumed-shape dummy) and in a reduction, and internal
! functions whose results' shapes and values read the host's variables.
module m2
  implicit none
contains
  function outer2(a, b) result(p)
    real(8), intent(in) :: a(:), b(2)
    real(8) :: p(0:size(a) - 1, 2)
    integer :: j
    do j = 1, 2
      p(:, j) = a * b(j)
      if (j == 2) return
    end do
  end function outer2

  function smooth(v) result(w)
    real(8), intent(in) :: v(:)
    real(8) :: w(size(v))
    w = 0.5d0 * v + 0.25d0 * cshift(v, 1) + 0.25d0 * cshift(v, -1)
    w = w * softsign(w)
  end function smooth

  function softsign(v) result(w)
    real(8), intent(in) :: v(:)
    real(8) :: w(size(v))
    w = 1d0 / (1d0 + abs(v))
  end function softsign

  subroutine accumulate(v, t)
    real(8), intent(in) :: v(:)
    real(8), intent(inout) :: t
    t = t + sum(v**2)
  end subroutine accumulate
end module m2

subroutine g(n, x, z, s)
  use m2
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: z(n, 2)
  real(8), intent(out) :: s
  integer :: it
  s = 0d0
  do it = 1, 3
    z = z + 0.1d0 * outer2(smooth(x), z(1:2, it / 3 + 1))
    where (smooth(z(:, 1)) > 0d0) z(:, 2) = z(:, 2) * halve(z(:, 1))
    call accumulate(smooth(z(:, 2)), s)
  end do
  s = s + sum(local_sq(x))
contains
  function halve(v) result(h)
    real(8), intent(in) :: v(:)
    real(8) :: h(size(v))
    h = 0.5d0 * v
  end function halve

  function local_sq(v) result(h)
    real(8), intent(in) :: v(n)
    real(8) :: h(n)
    h = v**2 + z(:, 1)
  end function local_sq
end subroutine g
