! adgen-test
! head: s(y)/(x)
! arg x: real(8) = 0.7
! arg y: real(8)
!
! The derivative of COMMON /blk/ would be the C global blk_d (tangent) or blk_b (adjoint),
! while a procedure using the block has locals of those names, which would hide it there
! (the output did not compile): the derivative takes another name.
      subroutine s(x, y)
      double precision x, y, a, c
      common /blk/ a, c
      a = x * x
      c = x * 3.0d0
      call t(y)
      end
      subroutine t(y)
      double precision y, p, q, blk_d, blk_b
      common /blk/ p, q
      blk_d = 5.0d0
      blk_b = 7.0d0
      y = p * q * blk_d + blk_b * p
      end
