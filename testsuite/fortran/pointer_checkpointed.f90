! adgen-test
! head: run(e)/(u0 c)
! arg n: integer = 7
! arg nsteps: integer = 6
! arg u0: real(8)[n] = uniform(-1, 1)
! arg c: real(8) = 0.2
! arg e: real(8)
!
! Local POINTERs swapped in a time loop checkpointed by BINOMIAL-CKP (the pointers are part
! of the state its snapshots keep), passed to an explicit-shape and to an assumed-shape
! dummy (which points pointers of its own at it), and read by an internal function
! through host association.
module ops
  implicit none
contains
  subroutine relax(m, v, c)
    integer, intent(in) :: m
    real(8), intent(inout) :: v(m)
    real(8), intent(in) :: c
    integer :: i
    do i = 2, m - 1
      v(i) = v(i) + c * (v(i-1) - 2.0d0 * v(i) + v(i+1)) - 0.01d0 * v(i)**3
    end do
  end subroutine relax
  subroutine scale_all(v, c)
    real(8), intent(inout), target :: v(:)
    real(8), intent(in) :: c
    real(8), pointer :: w(:), first
    w => v
    first => v(1)
    w = w * c
    first = first * (1.0d0 + 0.1d0 * first)
  end subroutine scale_all
end module ops

subroutine run(n, nsteps, u0, c, e)
  use ops
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: u0(n), c
  real(8), intent(out) :: e
  real(8), target :: a(n), b(n)
  real(8), pointer :: cur(:), nxt(:), t(:)
  integer :: k
  a = u0
  b = 0.0d0
  cur => a
  nxt => b
  !$AD BINOMIAL-CKP nsteps 3 1
  do k = 1, nsteps
    nxt = cur
    call relax(n, nxt, c)
    call scale_all(nxt, 0.99d0)
    t => cur
    cur => nxt
    nxt => t
  end do
  e = inner()
contains
  real(8) function inner()
    inner = sum(cur**2) + cur(1)
  end function inner
end subroutine run
