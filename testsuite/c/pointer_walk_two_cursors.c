/* adgen-test
head: smooth_rows(out)/(x)
arg n: int = 3
arg l: int = 4
arg x: double[n] = uniform(0.5, 1.5)
arg out: double[n*l]
*/
/* Two walking pointers over one buffer: a writer fills the rows, then a reader one row
 * behind a second writer mixes each row with the one before it (row 0 stays). The
 * buffer's length is the largest of what the walks cover, n*l. */

void smooth_rows(int n, int l, const double *x, double *out)
{
    double *w = out;
    const double *prev = out;
    double *cur = out + n;
    int k, i;
    for (k = 0; k < l; k++) {
        for (i = 0; i < n; i++)
            w[i] = x[i] * (k + 1) + x[(i + k) % n];
        w += n;
    }
    for (k = 1; k < l; k++) {
        for (i = 0; i < n; i++)
            cur[i] = cur[i] * prev[i] + 0.5 * x[i];
        prev += n;
        cur += n;
    }
}
