c adgen-test
c head: solve(b)/(a b)
c arg n: integer = 4
c arg a: real(8)[n*n] = uniform(0.5, 1.5)
c arg b: real(8)[n] = uniform(-1, 1)
c
c FORTRAN 66's assumed size, `b(1)` and `a(lda, 1)` (LINPACK's dummies, before `*`): the
c arrays are as long as the caller's. A diagonally dominated matrix is factored in place
c and the system solved in place, by routines called with such dummies (the state a
c callee changes is kept whole where it runs in joint mode: each array is n long, or n*n).
      subroutine solve(n, a, b)
      integer n
      double precision a(n, n), b(n)
      call dom(n, n, a)
      call fact(n, n, a)
      call back(n, n, a, b)
      end

      subroutine dom(lda, n, a)
      integer lda, n, i
      double precision a(lda, 1)
      do 10 i = 1, n
         a(i, i) = a(i, i) + 2d0 * n
   10 continue
      end

      subroutine fact(lda, n, a)
      integer lda, n, i, j, k
      double precision a(lda, 1), t
      do 30 k = 1, n - 1
         do 20 i = k + 1, n
            t = a(i, k) / a(k, k)
            a(i, k) = t
            do 15 j = k + 1, n
               a(i, j) = a(i, j) - t * a(k, j)
   15       continue
   20    continue
   30 continue
      end

      subroutine back(lda, n, a, b)
      integer lda, n
      double precision a(lda, 1), b(1)
      call lower(lda, n, a, b)
      call upper(lda, n, a, b)
      end

      subroutine lower(lda, n, a, b)
      integer lda, n, i, j
      double precision a(lda, 1), b(1)
      do 50 i = 2, n
         do 40 j = 1, i - 1
            b(i) = b(i) - a(i, j) * b(j)
   40    continue
   50 continue
      end

      subroutine upper(lda, n, a, b)
      integer lda, n, i, j
      double precision a(lda, 1), b(1)
      do 70 i = n, 1, -1
         do 60 j = i + 1, n
            b(i) = b(i) - a(i, j) * b(j)
   60    continue
         b(i) = b(i) / a(i, i)
   70 continue
      end
