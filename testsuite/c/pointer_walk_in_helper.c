/* adgen-test
head: scale_all(out)/(x)
arg n: int = 3
arg l: int = 2
arg x: double[n] = uniform(0.5, 1.5)
arg out: double[n*l]
*/
/* Walks inside a helper: the helper walks the buffer it is called with over l rows, and
 * another helper is called on each row by a walking pointer. The caller's buffer length,
 * n*l, comes through the calls. */

static void rows_times(double *buf, const double *x, int n, int l)
{
    double *p = buf;
    int k, i;
    for (k = 0; k < l; k++) {
        for (i = 0; i < n; i++)
            p[i] = p[i] * x[i];
        p += n;
    }
}

static void row_plus(double *r, const double *x, int n)
{
    int i;
    for (i = 0; i < n; i++)
        r[i] = r[i] * r[i] + x[i];
}

void scale_all(int n, int l, const double *x, double *out)
{
    double *p = out;
    int k;
    rows_times(out, x, n, l);
    for (k = 0; k < l; k++) {
        row_plus(p, x, n);
        p += n;
    }
}
