!=======================================================================
!  Steady 1-D nonlinear heat conduction in a thin fin / rod
!
!     -d/dx( k(T) dT/dx ) + hconv*(T - Tamb) + erad*(T**4 - Tamb**4) = f(x)
!
!  on 0 < x < xlen, with Dirichlet ends T(0) = tleft, T(xlen) = tright.
!  k(T) is a piecewise law (polynomial below a transition temperature,
!  exponential softening above).  The equation is discretised with
!  centred finite differences on n interior nodes (harmonic-mean face
!  conductivities), the nonlinearity is handled by Picard iteration
!  (lagged conductivity and linearised radiation), and each Picard
!  linear system is solved by SOR (over-relaxed Gauss-Seidel).
!
!  The cost is a weighted least-squares misfit to synthetic observed
!  temperatures, plus a penalty on the left-end heat flux, plus a
!  smoothed total-variation regularisation of the source field.
!  Control: the heat source f(1:n) (argument ctrl of subroutine cost).
!=======================================================================
module heat_mod
  implicit none
  integer, parameter :: nmax = 200

  ! --- problem size and grid (set by init_heat) ---
  integer :: nn
  real(8) :: xlen, h
  real(8) :: x(0:nmax+1)

  ! --- physical parameters (set by init_heat) ---
  real(8) :: k0, beta, tcap, gam
  real(8) :: hconv, erad, tamb, tleft, tright

  ! --- numerical parameters (set by init_heat) ---
  real(8) :: omega, gs_tol, picard_tol
  integer :: max_gs, max_picard

  ! --- cost-function data (set by init_heat) ---
  real(8) :: tobs(nmax), wobs(nmax)
  real(8) :: qobs, wflux, alpha_reg, eps_tv

  ! --- state / diagnostics (written by solve_heat and cost) ---
  real(8) :: temp(0:nmax+1)
  real(8) :: qleft
  integer :: npicard_last, nsweep_last

contains

  subroutine init_heat(n)
    integer, intent(in) :: n
    integer :: i
    real(8), parameter :: pi = 3.14159265358979323846d0

    if (n > nmax .or. n < 3) then
      write(*,*) 'init_heat: n out of range, n =', n, ' nmax =', nmax
      stop 2
    end if
    nn   = n
    xlen = 1.0d0
    h    = xlen / dble(n + 1)
    do i = 0, n + 1
      x(i) = dble(i) * h
    end do

    k0     = 1.0d0
    beta   = 2.0d0
    tcap   = 1.135d0
    gam    = 1.5d0
    hconv  = 100.0d0
    erad   = 5.0d0
    tamb   = 0.3d0
    tleft  = 1.0d0
    tright = 0.5d0

    omega      = 1.5d0
    gs_tol     = 1.0d-15
    picard_tol = 1.0d-14
    max_gs     = 5000
    max_picard = 200

    ! synthetic observations: linear profile plus a bump
    tobs(1:n) = tleft + (tright - tleft) * x(1:n) / xlen            &
              + 0.4d0 * sin(pi * x(1:n) / xlen)
    ! observation weights: every third node is "unobserved"
    wobs(1:n) = 1.0d0
    do i = 3, n, 3
      wobs(i) = 0.0d0
    end do
    where (x(1:n) > 0.75d0 * xlen) wobs(1:n) = 2.0d0 * wobs(1:n)

    qobs      = -2.0d0
    wflux     = 1.0d-2
    alpha_reg = 1.0d-4
    eps_tv    = 1.0d0

    temp(:) = 0.0d0
    qleft   = 0.0d0
    npicard_last = 0
    nsweep_last  = 0
  end subroutine init_heat

end module heat_mod


!-----------------------------------------------------------------------
!  Conductivity law, applied elementwise to t(m)
!-----------------------------------------------------------------------
subroutine conductivity(m, t, kc)
  use heat_mod
  implicit none
  integer, intent(in)  :: m
  real(8), intent(in)  :: t(m)
  real(8), intent(out) :: kc(m)

  where (t < tcap)
    kc = k0 * (1.0d0 + beta * t**2)
  elsewhere
    kc = k0 * (1.0d0 + beta * tcap**2) * exp(-gam * (t - tcap))
  end where
end subroutine conductivity


!-----------------------------------------------------------------------
!  SOR solution of the tridiagonal system
!     a(i)*t(i-1) + b(i)*t(i) + c(i)*t(i+1) = rhs(i),  i = 1..n
!  t(0) and t(n+1) hold the (fixed) Dirichlet values.
!  Old-style routine: no IMPLICIT NONE, integers typed by the i-n rule.
!-----------------------------------------------------------------------
subroutine sor_solve(n, a, b, c, rhs, t, omg, tol, maxit, nit)
  real(8) a(n), b(n), c(n), rhs(n), t(0:n+1)
  real(8) omg, tol
  real(8) tgs, tnew, dmax

  nit = 0
  do it = 1, maxit
    dmax = 0.0d0
    do i = 1, n
      tgs  = (rhs(i) - a(i) * t(i-1) - c(i) * t(i+1)) / b(i)
      tnew = t(i) + omg * (tgs - t(i))
      dmax = max(dmax, abs(tnew - t(i)))
      t(i) = tnew
    end do
    nit = it
    if (dmax <= tol) exit
  end do
  if (nit >= maxit) write(*,*) 'sor_solve: no convergence, dmax =', dmax
end subroutine sor_solve


!-----------------------------------------------------------------------
!  Picard iteration for the nonlinear steady problem with source f(n).
!  Output t(0:n+1) includes the boundary values.
!-----------------------------------------------------------------------
subroutine solve_heat(n, f, t)
  use heat_mod
  implicit none
  integer, intent(in)  :: n
  real(8), intent(in)  :: f(n)
  real(8), intent(out) :: t(0:n+1)

  real(8) :: told(n), kc(0:n+1), kf(0:n), hr(n)
  real(8) :: a(n), b(n), c(n), rhs(n)
  real(8) :: dtmax
  integer :: iter, nit, nsweep

  ! boundary values and initial guess (linear profile)
  t(0)     = tleft
  t(n+1)   = tright
  t(1:n)   = tleft + (tright - tleft) * x(1:n) / xlen

  iter   = 0
  nsweep = 0
  dtmax  = 1.0d30
  do while (dtmax > picard_tol .and. iter < max_picard)
    iter = iter + 1
    told = t(1:n)

    ! lagged conductivity, harmonic mean on faces i+1/2, i = 0..n
    call conductivity(n + 2, t, kc)
    kf(0:n) = 2.0d0 * kc(0:n) * kc(1:n+1) / (kc(0:n) + kc(1:n+1))

    ! linearised radiation: T^4 - Ta^4 = (T^2+Ta^2)(T+Ta) (T-Ta)
    hr = erad * (max(t(1:n), 0.0d0)**2 + tamb**2) * (max(t(1:n), 0.0d0) + tamb)

    a   = -kf(0:n-1) / h**2
    c   = -kf(1:n)   / h**2
    b   = (kf(0:n-1) + kf(1:n)) / h**2 + hconv + hr
    rhs = f + (hconv + hr) * tamb

    call sor_solve(n, a, b, c, rhs, t, omega, gs_tol, max_gs, nit)
    nsweep = nsweep + nit

    dtmax = maxval(abs(t(1:n) - told))
  end do

  npicard_last = iter
  nsweep_last  = nsweep
  print *, 'solve_heat: Picard its =', iter, ' SOR sweeps =', nsweep, &
           ' last change =', dtmax
  if (dtmax > picard_tol) print *, 'solve_heat: WARNING, Picard not converged'
end subroutine solve_heat


!-----------------------------------------------------------------------
!  Cost function: j = misfit + flux penalty + TV regularisation
!  Tapenade head:  cost(j)/(ctrl)
!-----------------------------------------------------------------------
subroutine cost(n, ctrl, j)
  use heat_mod
  implicit none
  integer, intent(in)  :: n
  real(8), intent(in)  :: ctrl(n)
  real(8), intent(out) :: j

  real(8) :: t(0:n+1), kc(0:1), dc(n-1)
  real(8) :: misfit, fluxpen, reg, kface

  call solve_heat(n, ctrl, t)
  temp(0:n+1) = t

  ! weighted temperature misfit
  misfit = 0.5d0 * h * sum(wobs(1:n) * (t(1:n) - tobs(1:n))**2)

  ! heat flux leaving through the left end, q = -k dT/dx at x = h/2
  call conductivity(2, t(0:1), kc)
  kface   = 2.0d0 * kc(0) * kc(1) / (kc(0) + kc(1))
  qleft   = -kface * (t(1) - t(0)) / h
  fluxpen = 0.5d0 * wflux * (qleft - qobs)**2

  ! smoothed total variation of the source
  dc  = (ctrl(2:n) - ctrl(1:n-1)) / h
  reg = alpha_reg * h * sum(sqrt(eps_tv**2 + dc**2))

  j = misfit + fluxpen + reg
end subroutine cost
