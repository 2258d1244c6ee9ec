! adgen-test
! head: network(out)/(inp wts)
! arg n: integer = 4
! arg inp: real(8)[n] = uniform(-1, 1)
! arg wts: real(8)[n, n] = uniform(-0.8, 0.8)
! arg out: real(8)[n]
!
! External procedures calling each other (a subroutine and functions, defined after
! their caller as is usual), an EXTERNAL statement and a typed external function
! declaration, whole arrays and single elements as actual arguments.
subroutine network(n, inp, wts, out)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: inp(n), wts(n, n)
  real(8), intent(out) :: out(n)
  real(8), external :: softplus
  external :: dense
  real(8) :: hidden(n)
  integer :: i
  call dense(n, wts, inp, hidden)
  do i = 1, n
    out(i) = softplus(hidden(i)) + inp(i)
  end do
end subroutine network

subroutine dense(n, w, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: w(n, n), x(n)
  real(8), intent(out) :: y(n)
  real(8) :: squash
  integer :: i, j
  do i = 1, n
    y(i) = 0.0d0
    do j = 1, n
      y(i) = y(i) + w(i, j) * x(j)
    end do
    y(i) = squash(y(i))
  end do
end subroutine dense

real(8) function softplus(z)
  implicit none
  real(8), intent(in) :: z
  softplus = log(1.0d0 + exp(z))
end function softplus

real(8) function squash(z)
  implicit none
  real(8), intent(in) :: z
  squash = z / (1.0d0 + z * z)
end function squash
