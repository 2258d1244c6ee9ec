! adgen-test
! head: plate_energy(e flux)/(u k)
! arg u: real(8)[5, 4] = uniform(0.5, 1.5)
! arg k: real(8)[4] = uniform(1, 2)
! arg flux: real(8)[5, 4]
! arg e: real(8)
!
! A module procedure as a head with 2-D assumed-shape dummies (u(:, :)): the C routine
! takes u_extent1 and u_extent2 last; the Fortran main program passes 2-D arrays through
! the interface module. An automatic local array sized by size(u, 1) (its declaration
! reads the extents), loops bounded by size(u, dim), a whole-array intent(out)
! dependent, and a call passing a column u(:, j) on to an assumed-shape dummy.
module plate
  implicit none
contains
  real(8) function column_tension(c)
    real(8), intent(in) :: c(:)
    column_tension = sum((c(2:) - c(:size(c) - 1))**2)
  end function column_tension

  subroutine plate_energy(u, k, flux, e)
    real(8), intent(in) :: u(:, :), k(:)
    real(8), intent(out) :: flux(:, :), e
    real(8) :: row_mean(size(u, 1))
    integer :: i, j
    do i = 1, size(u, 1)
      row_mean(i) = sum(u(i, :)) / size(u, 2)
    end do
    flux = 0.0d0
    e = 0.0d0
    do j = 1, size(u, 2)
      do i = 2, size(u, 1)
        flux(i, j) = k(j) * (u(i, j) - u(i - 1, j)) * row_mean(i)
      end do
      e = e + k(j) * column_tension(u(:, j))
    end do
    e = e + sum(flux**2) + maxval(row_mean) * sin(u(1, 1))
  end subroutine plate_energy
end module plate
