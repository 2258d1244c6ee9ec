!-----------------------------------------------------------------------
!  Gradient check for the reverse-mode (Tapenade-style) adjoint of
!        subroutine cost(n, ctrl, j)      head: cost(j)/(ctrl)
!  Generated adjoint signature:
!        subroutine cost_b(n, ctrl, ctrlb, j, jb)
!  ctrlb (out) receives dj/dctrl, jb (in) is the seed (= 1).
!  cost_b is called through an implicit interface (external procedure).
!-----------------------------------------------------------------------
program driver_b
  use heat_mod, only: init_heat
  implicit none
  external :: cost, cost_b

  integer, parameter :: n = 30
  integer, parameter :: ncheck = 7
  real(8), parameter :: pi = 3.14159265358979323846d0
  real(8), parameter :: reltol = 1.0d-5

  real(8) :: ctrl(n), ctrlb(n), cpert(n)
  real(8) :: j, jb, jp, jm, eps, fd, rel, relmax
  integer :: i, k, nfail
  integer :: icheck(ncheck) = (/ 1, 2, 4, 8, 10, 23, 30 /)

  ! module parameters, grid and observation data
  call init_heat(n)

  ! control: heat source field
  do i = 1, n
    ctrl(i) = 80.0d0 * (1.0d0 + 0.5d0 * sin(2.0d0 * pi * dble(i) / dble(n + 1))) &
            + 20.0d0 * dble(i) / dble(n)
  end do

  ! ---- adjoint gradient ----
  ctrlb = 0.0d0
  j     = 0.0d0
  jb    = 1.0d0
  call cost_b(n, ctrl, ctrlb, j, jb)

  ! ---- finite-difference check of selected components ----
  call cost(n, ctrl, j)
  write(*,'(a,es24.16)') ' cost j = ', j
  write(*,'(a)') '    i        adjoint                 finite diff.            rel. error'

  nfail  = 0
  relmax = 0.0d0
  do k = 1, ncheck
    i   = icheck(k)
    eps = 1.0d-6 * max(abs(ctrl(i)), 1.0d0)

    cpert    = ctrl
    cpert(i) = ctrl(i) + eps
    call cost(n, cpert, jp)
    cpert(i) = ctrl(i) - eps
    call cost(n, cpert, jm)
    fd = (jp - jm) / (2.0d0 * eps)

    rel = abs(ctrlb(i) - fd) / max(abs(fd), abs(ctrlb(i)), 1.0d-300)
    relmax = max(relmax, rel)
    write(*,'(i5,2es24.15,es12.3)') i, ctrlb(i), fd, rel
    if (.not. (rel <= reltol)) nfail = nfail + 1     ! also catches NaN
  end do

  write(*,'(a,es12.3)') ' max relative error = ', relmax
  if (nfail > 0) then
    write(*,'(a,i3,a)') ' FAIL: ', nfail, ' component(s) exceed tolerance'
    stop 1
  end if
  print *, 'PASS'
end program driver_b
