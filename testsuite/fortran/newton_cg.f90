! adgen-test
! head: solve_bvp(u)/(f c)
! arg n: integer = 10
! arg f: real(8)[n] = uniform(1, 3)
! arg c: real(8) = 2.0
! arg u: real(8)[n]
! tol: 1e-5
!
! A nonlinear elliptic problem -u'' + c u^3 = f on (0, 1), u = 0 at both ends,
! discretized by finite differences and solved by Newton's method until the
! residual is small (a DO WHILE convergence loop), each Newton system solved by
! the conjugate gradient method with a tolerance (an inner DO WHILE with EXIT).
module bvp_solver
  implicit none
  integer, parameter :: maxnewton = 30, maxcg = 200
  real(8), parameter :: newton_tol = 1.0d-12, cg_tol = 1.0d-14
contains
  ! y = (A + diag(d)) x, A the 1-D Laplacian (2, -1) / h^2
  subroutine apply_op(n, h, d, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: h, d(n), x(n)
    real(8), intent(out) :: y(n)
    integer :: i
    do i = 1, n
      y(i) = (2.0d0 + h * h * d(i)) * x(i)
      if (i > 1) y(i) = y(i) - x(i-1)
      if (i < n) y(i) = y(i) - x(i+1)
      y(i) = y(i) / (h * h)
    end do
  end subroutine apply_op

  subroutine cg(n, h, d, b, x)
    integer, intent(in) :: n
    real(8), intent(in) :: h, d(n), b(n)
    real(8), intent(out) :: x(n)
    real(8) :: r(n), p(n), q(n), rr, rr_new, alpha, beta, bnorm
    integer :: it
    x = 0.0d0
    r = b
    p = r
    rr = dot_product(r, r)
    bnorm = sqrt(rr)
    it = 0
    do while (it < maxcg)
      it = it + 1
      call apply_op(n, h, d, p, q)
      alpha = rr / dot_product(p, q)
      x = x + alpha * p
      r = r - alpha * q
      rr_new = dot_product(r, r)
      if (sqrt(rr_new) <= cg_tol * bnorm) exit
      beta = rr_new / rr
      p = r + beta * p
      rr = rr_new
    end do
  end subroutine cg
end module bvp_solver

subroutine solve_bvp(n, f, c, u)
  use bvp_solver
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: f(n), c
  real(8), intent(out) :: u(n)
  real(8) :: h, res(n), au(n), d(n), du(n), rnorm
  integer :: k
  h = 1.0d0 / (n + 1)
  u = 0.0d0
  k = 0
  rnorm = 1.0d0
  do while (rnorm > newton_tol .and. k < maxnewton)
    k = k + 1
    d = 0.0d0
    call apply_op(n, h, d, u, au)
    res = au + c * u**3 - f
    rnorm = sqrt(sum(res**2) / n)
    d = 3.0d0 * c * u**2
    call cg(n, h, d, -res, du)
    u = u + du
  end do
end subroutine solve_bvp
