! adgen-test
! head: field_energy(e)/(a phase)
! arg n: integer = 6
! arg a: real(8)[n] = uniform(0.5, 1.5)
! arg phase: real(8)[n] = uniform(-1.0, 1.0)
! arg e: real(8)
!
! COMPLEX arithmetic of every kind adgen rewrites into real arithmetic: DOUBLE COMPLEX,
! COMPLEX*16 and COMPLEX(dp) declarations, a complex module variable, literals, cmplx,
! conjg, exp, log, sin, cos, abs, real, aimag, sum of an array, + - * / (by a complex
! literal too) and integer powers, == and /= (in an IF with .or.), a pure complex
! function (its result through a temporary), a complex expression passed to a
! subroutine's complex dummy (through a temporary), complex arrays assigned whole, a
! complex value assigned to a real (its real part, as Fortran does).
module waves
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  complex(dp) :: carrier
contains
  pure complex(dp) function rotate(z, theta)
    complex(dp), intent(in) :: z
    real(dp), intent(in) :: theta
    rotate = z * exp(cmplx(0.0_dp, theta, kind=dp))
  end function

  subroutine scale_all(m, z, c)
    integer, intent(in) :: m
    complex(dp), intent(inout) :: z(m)
    complex(dp), intent(in) :: c
    integer :: i
    do i = 1, m
      z(i) = z(i) * c + conjg(c) * (0.1_dp, -0.2_dp)
    end do
  end subroutine

  subroutine field_energy(n, a, phase, e)
    integer, intent(in) :: n
    real(dp), intent(in) :: a(n), phase(n)
    real(dp), intent(out) :: e
    double complex :: u(n)
    complex*16 :: acc, t
    complex(dp) :: v(n)
    integer :: i
    carrier = (0.8_dp, 0.6_dp)
    do i = 1, n
      u(i) = cmplx(a(i) * cos(phase(i)), a(i) * sin(phase(i)), kind=dp)
    end do
    v = u
    call scale_all(n, u, carrier * 2.0_dp)
    acc = (0.0_dp, 0.0_dp)
    do i = 1, n
      t = rotate(u(i), 0.3_dp * i) / (1.0_dp + v(i) ** 2)
      if (abs(t) > 0.5_dp) then
        acc = acc + t * conjg(v(i))
      else
        acc = acc - 2 * t + log(v(i)) * sin(t) - cos(v(i))
      end if
      acc = -acc / (2.0_dp, 1.0_dp)
      if (t == v(i) .or. acc /= acc) acc = 0
    end do
    acc = acc + sum(v) * 0.1_dp
    e = real(acc) + 2 * aimag(acc) + abs(acc) ** 2
    e = e + acc
  end subroutine
end module
