! adgen-test
! head: deposit(rho, moment)/(frac, charge)
! arg np: integer = 6
! arg ng: integer = 5
! arg cell: integer[np] = {1, 4, 2, 4, 3, 1}
! arg frac: real(8)[np] = uniform(0.1, 0.9)
! arg charge: real(8)[np] = uniform(-1, 1)
! arg rho: real(8)[ng] = uniform(-1, 1)
! arg moment: real(8) = uniform(-1, 1)
!
! Particles deposit their charge into the two grid cells around them, the loop spread
! over threads: two particles may share a cell, so each deposit is an `!$omp atomic`
! update, and the first moment is summed in an `!$omp critical` section. The tangent
! keeps both exclusive; the adjoint's backward loop only reads the grid's adjoint.
subroutine deposit(np, ng, cell, frac, charge, rho, moment)
  implicit none
  integer, intent(in) :: np, ng
  integer, intent(in) :: cell(np)
  real(8), intent(in) :: frac(np), charge(np)
  real(8), intent(inout) :: rho(ng), moment
  real(8) :: left, right
  integer :: p
!$omp parallel do private(left, right) schedule(static)
  do p = 1, np
    left = charge(p) * (1d0 - frac(p))
    right = charge(p) * frac(p)
!$omp atomic
    rho(cell(p)) = rho(cell(p)) + left
!$omp atomic update
    rho(cell(p) + 1) = rho(cell(p) + 1) + right
!$omp critical (moments)
    moment = moment + right * frac(p)
    moment = moment - 0.5d0 * left * frac(p)**2
!$omp end critical (moments)
  end do
end subroutine
