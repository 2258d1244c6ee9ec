! regress (a fuzz failure, fixed): a WHERE assignment whose right side reads the target (y(3)) goes through a temporary, and the copy back of the temporary ignores the mask: masked-out elements are overwritten
! adgen-test
! head: fz_head(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = [0.3d0, -0.4d0, 0.5d0, -0.6d0, 0.7d0, 0.2d0]
! arg y: real(8)[n]
!
subroutine fz_head(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  y = x
  where (y > 0.0d0)
    y = tanh(y) * y(3)
  end where
end subroutine fz_head
