! adgen-test
! head: lu_rows(a)/(a)
! arg n: integer = 3
! arg lda: integer = 3
! arg a: real(8)[lda*n]
! expect-error: temporary array whose size depends on 'k'
! expect-error-line: 20
!
! Must be refused, at its line (the message named no line): an array assignment that reads
! its target needs a temporary, whose size here depends on the loop's k, and the whole
! extent of an assumed-size a(lda, *) is not known to size it instead.
subroutine lu_rows(n, lda, a)
  implicit none
  integer, intent(in) :: n, lda
  real(8), intent(inout) :: a(lda, *)
  integer :: i, k
  do k = 1, n
    do i = k + 1, n
      a(i, k) = a(i, k) / a(k, k)
      a(i, k+1:n) = a(i, k+1:n) - a(i, k) * a(k, k+1:n)
    end do
  end do
end subroutine lu_rows
