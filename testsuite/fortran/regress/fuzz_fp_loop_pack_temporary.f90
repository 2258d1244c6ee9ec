! adgen-test
! head: outer(y)/(x)
! arg n: integer = 5
! arg x: real(8)[n] = [0.3d0, -0.5d0, 0.9d0, 0.2d0, -0.7d0]
! arg y: real(8)
!
! A fixed-point loop (FP-LOOP) in a procedure that writes the array its caller passes from
! an allocatable array, and that allocates nothing itself but the temporary of one
! statement (a pack): the caller's block is kept through the dummy.
module fp_pack_m
  implicit none
contains
  subroutine relax(m, u, p)
    real(8) :: chg, z, bias
    integer, intent(in) :: m
    real(8), intent(inout) :: p(m)
    real(8), intent(in) :: u(m)
    integer :: it, i
    bias = 0.1d0 * sum(pack(u, u > 0d0))
    chg = 1d0
    it = 0
    !$AD FP-LOOP
    do while (chg > 1d-14 .and. it < 300)
      chg = 0d0
      do i = 1, m
        z = 0.25d0 * tanh(p(mod(i, m) + 1)) + 0.5d0 * u(i) + bias
        chg = max(chg, abs(z - p(i)))
        p(i) = z
      end do
      it = it + 1
    end do
  end subroutine relax

  subroutine outer(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8), allocatable :: w(:)
    allocate(w(n))
    w = 0.1d0 * x
    call relax(n, x, w)
    y = sum(w * w) + sum(sin(w) * x)
    deallocate(w)
  end subroutine outer
end module fp_pack_m
