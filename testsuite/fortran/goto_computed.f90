! adgen-test
! head: pick(y)/(x)
! arg k: integer = 2
! arg x: real(8) = uniform(0.5, 1.5)
! arg y: real(8)
! head: pick(y)/(x)
! arg k: integer = 5
! arg x: real(8) = uniform(0.5, 1.5)
! arg y: real(8)
! head: steps(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)
!
! The jumps of older Fortran: a computed GOTO (GO TO (10, 20, 30) k, to the k-th label,
! no jump when k is out of range: the second head) and arithmetic IFs (IF (e) 10, 20, 30:
! by the sign of e, here a real value that carries derivatives), one of them closing a loop
! formed by a backward jump.
subroutine pick(k, x, y)
  implicit none
  integer, intent(in) :: k
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  y = x
  if (k < 1) return
  go to (10, 20, 30) k
  y = sin(y)
10 y = y * x
20 y = y * x
30 y = y + 1.0d0
end subroutine pick

subroutine steps(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  integer :: i
  y = 0.0d0
  i = 0
10 i = i + 1
  if (x(i)) 20, 30, 40
20 y = y - x(i) * x(i)
  go to 50
30 y = y + 1.0d0
  go to 50
40 y = y + sin(x(i))
50 if (i - n) 10, 60, 60
60 y = y * 0.5d0
end subroutine steps
