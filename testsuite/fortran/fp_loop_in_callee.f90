! adgen-test
! head: fp_outer(y)/(p)
! arg n: integer = 3
! arg p: real(8)[n] = [0.3d0, -0.2d0, 0.7d0]
! arg y: real(8)
!
! A fixed-point loop (!$AD FP-LOOP) in a called subroutine whose state is the caller's
! local array, reached through a dummy argument (written for this project).
subroutine relax(n, uold, p, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: uold(n), p(n)
  real(8), intent(out) :: z(n)
  real(8) :: zk(n), err
  integer :: it
  z = uold
  err = 1.0d0
  it = 0
  !$AD FP-LOOP z
  do while (err > 1.0d-15 .and. it < 300)
    it = it + 1
    zk = z
    z = uold + 0.1d0 * (0.5d0 * cos(zk) + p)
    err = maxval(abs(z - zk))
  end do
end subroutine relax

subroutine fp_outer(n, p, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: p(n)
  real(8), intent(out) :: y
  real(8) :: u(n), un(n)
  u = 0.1d0
  call relax(n, u, p, un)
  u = un
  y = sum(u**2)
end subroutine fp_outer
