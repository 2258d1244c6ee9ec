! adgen-test
! head: smooth(y)/(x)
! arg n: integer = 6
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg y: real(8)[n]
!
! No `implicit none`: the loop variable `k`, implicitly an integer and met only after an
! array assignment, and the locals `tmp`, `k2`, `acc` and `auto` have the names of the
! temporaries adgen makes (array-assignment loop indices, temporary arrays, accumulators)
! or of a C keyword; each keeps its own variable in the C code.
subroutine smooth(n, x, y)
  double precision x(n), y(n), a(2, 2), b(2), tmp, k2, auto, acc(2)
  y = x
  y(2:n) = y(1:n-1) + 0.5d0 * y(2:n)
  a = 1.0d0
  a(1, 2) = 3.0d0
  b = x(1:2)
  acc = matmul(a, b)
  tmp = 1.5d0
  k2 = 2
  auto = 0.25d0
  do k = 1, n
    y(k) = y(k) * x(k) * tmp + auto * k2 * acc(1 + mod(k, 2))
  end do
end subroutine smooth
