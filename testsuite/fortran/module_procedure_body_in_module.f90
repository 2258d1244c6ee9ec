! adgen-test
! head: energy(e)/(q)
! arg n: integer = 4
! arg q: real(8)[n] = uniform(0.3, 1.1)
! arg e: real(8)
!
! Separate module procedures whose bodies, written without their dummies (`module
! procedure f`), are in the module that declares their interfaces, not in a submodule:
! declarations of a kind named by a parameter of the module, assumed-shape array
! dummies, and a body with an internal procedure of its own.
module springs
  implicit none
  integer, parameter :: dp = kind(1d0)
  interface
    module subroutine stretch(q, s)
      real(dp), intent(in) :: q(:)
      real(dp), intent(out) :: s(:)
    end subroutine stretch
    module subroutine spring_energy(q, e)
      real(dp), intent(in) :: q(:)
      real(dp), intent(out) :: e
    end subroutine spring_energy
  end interface
contains
  module procedure stretch
    integer :: i
    do i = 1, size(q)
      s(i) = q(i) * q(i) - 0.5_dp
    end do
  end procedure stretch

  module procedure spring_energy
    real(dp) :: s(size(q))
    call stretch(q, s)
    e = half_square_sum(s)
  contains
    function half_square_sum(v) result(h)
      real(dp), intent(in) :: v(:)
      real(dp) :: h
      h = 0.5_dp * sum(v * v)
    end function half_square_sum
  end procedure spring_energy
end module springs

subroutine energy(n, q, e)
  use springs, only: dp, spring_energy
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: q(n)
  real(dp), intent(out) :: e
  call spring_energy(q, e)
  e = e + sum(q)
end subroutine energy
