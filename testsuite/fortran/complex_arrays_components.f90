! adgen-test
! head: run(e)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg e: real(8)
!
! COMPLEX data in the places Fortran keeps it: a complex PARAMETER (the imaginary unit),
! an ALLOCATABLE complex array assigned whole and by overlapping sections (its imaginary
! parts first when they read its real parts and not the other way round), a complex
! component of a derived type, a DO WHILE test on abs() of a complex value, a host's
! complex variable read by an internal procedure.
module complex_data
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  complex(dp), parameter :: iu = (0.0_dp, 1.0_dp)
  type wave
    complex(dp) :: amp
    real(dp) :: k
  end type
contains
  subroutine run(n, x, e)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: e
    complex(dp), allocatable :: z(:)
    type(wave) :: w
    complex(dp) :: q
    integer :: i
    allocate(z(n))
    z = x * iu + 1
    z(2:n) = z(1:n-1) * 0.5_dp
    z = cmplx(real(z) + 1, 0.5_dp * real(z) + aimag(z), kind=dp)
    w%amp = (1.0_dp, 0.5_dp) * x(1)
    w%k = x(2)
    w%amp = w%amp * w%amp + iu
    q = z(1)
    i = 0
    do while (abs(q) < 10.0_dp .and. i < 20)
      q = q * (1.1_dp, 0.2_dp) + w%amp * 0.01_dp
      i = i + 1
    end do
    e = abs(q) + real(w%amp) * w%k + sum(aimag(z))
    call inner()
  contains
    subroutine inner()
      e = e + aimag(q) * 0.5_dp
    end subroutine
  end subroutine
end module
