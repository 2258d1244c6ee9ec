! adgen-test
! head: energy(e)/(v x)
! arg n: integer = 5
! arg v: real(8)[n] = uniform(-1, 1)
! arg x: real(8)[n] = uniform(0, 1)
! arg e: real(8)
!
! Kinds from the intrinsic modules (iso_fortran_env's real64 and int32, iso_c_binding's
! c_double and c_int, renamed too), a parameter computed from atan, a PURE function, and
! the clocks (cpu_time, system_clock) read around the work for a report: left out of
! the derivative code, their variables set to 0 (a rate to 1), with a warning.
module kinds
  use, intrinsic :: iso_fortran_env, only: real64, int32
  use, intrinsic :: iso_c_binding, only: cdbl => c_double, c_int
  implicit none
  integer, parameter :: dp = real64
  real(dp), parameter :: pi = 4.0_dp * atan(1.0_dp)
end module kinds

module physics
  use kinds
  implicit none
  real(kind=cdbl), parameter :: half = 0.5_cdbl
contains
  pure function kinetic(v) result(k)
    real(dp), intent(in) :: v(:)
    real(dp) :: k
    k = half * dot_product(v, v)
  end function kinetic

  subroutine energy(n, v, x, e)
    integer(int32), intent(in) :: n
    real(dp), intent(in) :: v(n), x(n)
    real(dp), intent(out) :: e
    real(dp) :: t0, t1, elapsed
    integer(c_int) :: c0, c1, rate
    call cpu_time(t0)
    call system_clock(c0, rate)
    e = kinetic(v) + sum(sin(2 * pi * x)**2) / real(n, dp)
    call system_clock(count=c1)
    call cpu_time(t1)
    elapsed = (t1 - t0) + real(c1 - c0, dp) / rate
    if (elapsed < 0) print *, 'clock went back', elapsed
    if (e < 0) error stop 'negative energy'
  end subroutine energy
end module physics
