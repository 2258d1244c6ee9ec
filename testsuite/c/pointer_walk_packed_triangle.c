/* adgen-test
head: scale_packed(ap)/(d)
arg n: int = 4
arg d: double[n] = uniform(0.5, 1.5)
arg ap: double[n*(n+1)/2] = uniform(-1, 1)
*/
/* A packed lower triangle (column k holds n - k numbers, LAPACK's 'L' packing) walked by a
 * pointer that moves by the column's length, which changes from one column to the next,
 * then a second walk back from where the first ended over the rows of the upper packing
 * (row k holds k + 1 numbers), counting down. `ap` is a pure output whose values are read: its seed is consumed over
 * n*(n+1)/2 elements, the sum of the steps in closed form. */

void scale_packed(int n, const double *d, double *ap)
{
    double *col = ap;
    double *row;
    int k, i;
    for (k = 0; k < n; k++) {
        for (i = 0; i < n - k; i++)
            col[i] = col[i] * d[k] * d[i];
        col += n - k;
    }
    row = col;      /* one past the end */
    for (k = n - 1; k >= 0; k--) {
        row -= k + 1;
        for (i = 0; i <= k; i++)
            row[i] = row[i] + 0.5 * d[i];
    }
}
