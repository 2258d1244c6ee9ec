! adgen-test
! head: logsumexp(logsumexp)/(x t)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(-2, 2)
! arg t: real(8) = 0.7
!
! A function head in a module with a RESULT variable (symbol __softmax_mod_MOD_logsumexp;
! the derivatives are external: logsumexp_b_, logsumexp_d_), calling another module
! function inside an expression and maxval for the usual shift.
module softmax_mod
  implicit none
contains
  pure real(8) function scaled(v, t)
    real(8), intent(in) :: v, t
    scaled = v / t
  end function scaled

  function logsumexp(n, x, t) result(r)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), t
    real(8) :: r, m, s
    integer :: i
    m = maxval(x)
    s = 0.0d0
    do i = 1, n
      s = s + exp(scaled(x(i) - m, t))
    end do
    r = scaled(m, t) + log(s)
  end function logsumexp
end module softmax_mod
