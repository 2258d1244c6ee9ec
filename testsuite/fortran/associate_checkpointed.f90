! adgen-test
! head: march(e)/(u nu)
! arg n: integer = 6
! arg nsteps: integer = 20
! arg u: real(8)[0:n+1] = uniform(0, 1)
! arg nu: real(8)[n] = uniform(0.05, 0.15)
! arg e: real(8)
!
! ASSOCIATE names for the interior of a state array and for a coefficient, around a time
! loop checkpointed with BINOMIAL-CKP and inside its body.
subroutine march(n, nsteps, u, nu, e)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(inout) :: u(0:n+1)
  real(8), intent(in) :: nu(n)
  real(8), intent(out) :: e
  real(8) :: flux(n)
  integer :: it, i
  associate (inner => u(1:n), c => 0.5d0)
    !$AD BINOMIAL-CKP nsteps 4 1
    do it = 1, nsteps
      associate (left => u(0:n-1), right => u(2:n+1))
        do i = 1, n
          flux(i) = nu(i) * (left(i) - 2d0 * inner(i) + right(i))
        end do
      end associate
      inner = inner + c * flux - 0.01d0 * inner**3
    end do
  end associate
  e = sum(u**2)
end subroutine march
