! adgen-test
! head: polyfit(c)/(y)
! arg y: real(8)[5] = uniform(-1, 1)
! arg c: real(8)[3]
!
! PARAMETER constants: F77 PARAMETER statements and F90 parameter attributes,
! integer parameters as array dimensions and loop bounds, a parameter array, and
! parameters defined from other parameters.
subroutine polyfit(y, c)
  implicit none
  integer NPT, NC
  PARAMETER (NPT = 5, NC = 3)
  real(8), parameter :: x0 = -1.0d0, dx = 2.0d0 / (NPT - 1)
  real(8), parameter :: w(NPT) = (/ 1.0d0, 2.0d0, 3.0d0, 2.0d0, 1.0d0 /)
  real(8), intent(in) :: y(NPT)
  real(8), intent(out) :: c(NC)
  real(8) :: a(NC, NC), b(NC), xi, f
  integer :: i, j, k
  a = 0.0d0
  b = 0.0d0
  do i = 1, NPT
    xi = x0 + (i - 1) * dx
    do j = 1, NC
      b(j) = b(j) + w(i) * xi**(j - 1) * y(i)
      do k = 1, NC
        a(j, k) = a(j, k) + w(i) * xi**(j + k - 2)
      end do
    end do
  end do
  ! Gaussian elimination without pivoting (a is symmetric positive definite)
  do k = 1, NC - 1
    do j = k + 1, NC
      f = a(j, k) / a(k, k)
      a(j, k:NC) = a(j, k:NC) - f * a(k, k:NC)
      b(j) = b(j) - f * b(k)
    end do
  end do
  do j = NC, 1, -1
    c(j) = (b(j) - sum(a(j, j+1:NC) * c(j+1:NC))) / a(j, j)
  end do
end subroutine polyfit
