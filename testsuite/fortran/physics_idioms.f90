! adgen-test
! head: run(cost)/(h u)
! arg n: integer = 6
! arg nsteps: integer = 4
! arg h: real(8)[n] = uniform(1, 2)
! arg u: real(8)[n] = uniform(-1, 1)
! arg cost: real(8)
!
! A small shallow-water code written the way physics codes are: a kind parameter from
! selected_real_kind, an error routine given messages built by concatenation and by a
! WRITE into a string (WRITE left out of the derivative code, STOP kept), ASSOCIATE, DO
! CONCURRENT, a BLOCK with a local, an ELEMENTAL limiter applied to an array expression,
! and a named time loop left by EXIT. Each step's locals (the flux array, the message's
! text) are its own: the backward sweep, which runs a step again before its adjoint,
! needs none of them saved.
module params
  implicit none
  integer, parameter :: dp = selected_real_kind(15, 307)
  real(dp), parameter :: gravity = 9.81_dp
  character(len=16) :: scheme = 'upwind'
contains
  subroutine fail_if(bad, msg)
    logical, intent(in) :: bad
    character(len=*), intent(in) :: msg
    if (bad) call fail(msg)
  end subroutine

  subroutine fail(msg)
    character(len=*), intent(in) :: msg
    write(*, '(a)') 'error: ' // trim(msg)
    stop 1
  end subroutine
end module

module flux_mod
  use params
  implicit none
contains
  elemental function limiter(r) result(phi)
    real(dp), intent(in) :: r
    real(dp) :: phi
    phi = max(0.0_dp, min(1.0_dp, r))
  end function

  subroutine step(n, h, u, dt, dx)
    integer, intent(in) :: n
    real(dp), intent(inout) :: h(n), u(n)
    real(dp), intent(in) :: dt, dx
    real(dp) :: flux(0:n)
    integer :: i
    if (trim(scheme) /= 'upwind') call fail('unknown scheme ' // scheme)
    associate (c => dt / dx)
      do i = 1, n - 1
        flux(i) = 0.5_dp * (h(i) * u(i) + h(i+1) * u(i+1)) - 0.5_dp / c * (h(i+1) - h(i))
      end do
      flux(0) = flux(1); flux(n) = flux(n-1)
      do concurrent (i = 1:n)
        h(i) = h(i) - c * (flux(i) - flux(i-1))
      end do
    end associate
    block
      real(dp) :: s
      character(len=40) :: line
      s = sum(h)
      if (s <= 0) call fail('mass lost')
      write(line, '(a,es12.4)') 'mass ', s
      call fail_if(s > 1e9_dp, line)
    end block
    u = u * limiter(h / maxval(h))
  end subroutine

  subroutine run(n, nsteps, h, u, cost)
    integer, intent(in) :: n, nsteps
    real(dp), intent(inout) :: h(n), u(n)
    real(dp), intent(out) :: cost
    integer :: t
    outer: do t = 1, nsteps
      call step(n, h, u, 0.01_dp, 0.1_dp)
      if (any(h > 1.0e6_dp)) exit outer
    end do outer
    cost = sum(h**2) + gravity * sum(u)
  end subroutine
end module
