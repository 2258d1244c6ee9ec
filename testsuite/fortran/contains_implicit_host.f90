! adgen-test
! head: implicit_host(y)/(x s)
! arg n: integer = 5
! arg x: real(8)[n] = uniform(0.5, 1.5)
! arg s: real(8) = 0.7
! arg y: real(8)
! head: implicit_host_fn(implicit_host_fn)/(x)
! arg n: integer = 4
! arg x: real(8)[n] = uniform(0.5, 1.5)
!
! No declarations for most of the host's variables: the scalars `c` and `w`, the loop
! index `k` and the dummy `s` are declared implicitly by their use in the host, so the
! internal procedures that use them refer to the host's variables (host association), not
! to implicitly typed locals of their own; `k` is still n + 1 when `bump` reads it after
! the loop. An internal procedure's own dummy (`c` of `sq`) and a name the host does not
! use (`t`) are its own. In a function, an internal procedure adds to the host's result.
subroutine implicit_host(n, x, s, y)
  implicit double precision (a-h, o-z)
  dimension x(n)
  c = 3.0d0
  w = s * x(1)
  y = 0.0d0
  do k = 1, n
    y = y + term()
  end do
  call bump()
  y = y + sq(w)
contains
  double precision function term()
    term = c * x(k)**2 + w * k
    if (k > 1) term = term + x(k) * x(k - 1) * s
  end function term

  subroutine bump()
    t = 0.5d0
    w = w * x(k - 1) + t
  end subroutine bump

  double precision function sq(c)
    sq = c * c
  end function sq
end subroutine implicit_host

double precision function implicit_host_fn(n, x)
  double precision x(n)
  implicit_host_fn = 0.0d0
  do i = 1, n
    call add(x(i) * i)
  end do
contains
  subroutine add(v)
    double precision v
    implicit_host_fn = implicit_host_fn + v * v
  end subroutine add
end function implicit_host_fn
