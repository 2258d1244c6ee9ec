! adgen-test
! head: portfolio(risk r)/(w ret)
! arg n: integer = 6
! arg w: real(8)[n] = uniform(0.2, 1.0)
! arg ret: real(8)[n] = uniform(-0.5, 0.5)
! arg gamma: real(8) = 2.5
! arg r: real(8)[n]
! arg risk: real(8)
!
! A module of vector kernels with assumed-shape dummies (a(:)), called from an
! explicit-shape routine: whole arrays, contiguous sections and an array expression as
! actual arguments, a kernel passing its assumed-shape dummy on to another one,
! size(a), array syntax, sum / maxval / dot_product over assumed-shape arrays, a
! function result, an intent(inout) assumed-shape dummy and an automatic local array
! sized by size(a).
module vector_kernels
  implicit none
contains
  real(8) function wnorm2(a, wt)
    real(8), intent(in) :: a(:), wt(:)
    integer :: i
    wnorm2 = 0.0d0
    do i = 1, size(a)
      wnorm2 = wnorm2 + wt(i) * a(i)**2
    end do
  end function wnorm2

  subroutine axpy(alpha, x, y)
    real(8), intent(in) :: alpha, x(:)
    real(8), intent(inout) :: y(:)
    y = y + alpha * x
  end subroutine axpy

  subroutine softmax(a, p)
    real(8), intent(in) :: a(:)
    real(8), intent(out) :: p(:)
    real(8) :: shifted(size(a))
    shifted = a - maxval(a)
    p = exp(shifted)
    p = p / sum(p)
  end subroutine softmax

  real(8) function centred_variance(a)
    real(8), intent(in) :: a(:)
    real(8) :: mean
    real(8) :: dev(size(a))
    mean = sum(a) / size(a)
    dev = a - mean
    centred_variance = wnorm2(dev, dev * 0.0d0 + 1.0d0) / (size(a) - 1)
  end function centred_variance
end module vector_kernels

subroutine portfolio(n, w, ret, gamma, r, risk)
  use vector_kernels
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: w(n), ret(n), gamma
  real(8), intent(out) :: r(n), risk
  real(8) :: p(n)
  call softmax(gamma * w, p)
  r = ret
  call axpy(0.5d0, p, r)
  call axpy(-0.25d0, ret(2:n), r(1:n-1))
  risk = wnorm2(r, p) + centred_variance(r) + dot_product(p(1:n/2), w(1:n/2))
end subroutine portfolio
