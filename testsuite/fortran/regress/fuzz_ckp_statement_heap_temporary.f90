! adgen-test
! head: march(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(-1, 1)
! arg y: real(8)[n]
!
! A checkpointed loop whose WHERE needs temporaries of an allocatable array's shape: they
! live on the heap for one statement and are no state of the loop (the loop was refused:
! "the code allocates 'tmp' again"; Fortran random program 5900189).
subroutine march(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8), allocatable :: w(:)
  integer :: t
  allocate(w(n))
  w = x
  y = 0d0
  !$AD BINOMIAL-CKP 8 3 1
  do t = 1, 8
    where (sin(w) > 0.1d0)
      w = 0.5d0 * w + 0.25d0 * x
    elsewhere
      w = tanh(x - w)
    end where
    y = y + 0.1d0 * w * x
  end do
  deallocate(w)
end subroutine march
