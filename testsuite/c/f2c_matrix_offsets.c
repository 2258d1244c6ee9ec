/* adgen-test
head: rowscale_(y)/(a x)
head: rowscale_(y a)/(a x)
arg m: int[1] = {3}
arg n: int[1] = {4}
arg a: double[18] = uniform(-1, 1)
arg lda: int[1] = {5}
arg x: double[4] = uniform(0.5, 1.5)
arg y: double[3]
*/
/* f2c's translation of a routine over a column-major matrix with a leading dimension:
 * the matrix pointer is moved back by `1 + lda` (`a -= a_offset;`), the vectors by one
 * (`--x;`), so that the loops index from 1, and the last and first elements of y are
 * read again after the loops. adgen finds every array's length itself (no --size): an
 * alias moved only by itself, before any read, is at its moved offset wherever it is
 * read. Of the caller's pointer a, elements up to a[m - 1 + (n - 1)*lda] are used (18
 * here, the rows below m of the last column not passed): the adjoint must neither write
 * past them nor miss one. */
typedef int integer;
typedef double doublereal;

/* Subroutine */ int rowscale_(integer *m, integer *n, doublereal *a, integer *lda,
                               doublereal *x, doublereal *y)
{
    integer a_dim1, a_offset, i__1, i__2;
    integer i__, j;

    /* Parameter adjustments */
    a_dim1 = *lda;
    a_offset = 1 + a_dim1;
    a -= a_offset;
    --x;
    --y;

    i__1 = *m;
    for (i__ = 1; i__ <= i__1; ++i__) {
        y[i__] = 0.;
        i__2 = *n;
        for (j = 1; j <= i__2; ++j) {
            y[i__] += a[i__ + j * a_dim1] * x[j] * x[j];
        }
    }
    y[*m] = y[*m] * y[1];
    a[*m + *n * a_dim1] = a[*m + *n * a_dim1] * y[*m];
    return 0;
}
