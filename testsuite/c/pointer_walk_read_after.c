/* adgen-test
head: tail_sum(out)/(x)
arg n: int = 3
arg l: int = 3
arg x: double[n] = uniform(0.5, 1.5)
arg out: double[n*l+1]
*/
/* A walking pointer read after its loop, where it points one past the rows (the last
 * number of the buffer, element n*l), then stepped back one row and read again; plus a
 * backward walk (`p--`) under a loop counting down. */

void tail_sum(int n, int l, const double *x, double *out)
{
    double *p = out;
    double *q;
    int k, i;
    for (k = 0; k < l; k++) {
        for (i = 0; i < n; i++)
            p[i] = p[i] * x[i];
        p += n;
    }
    p[0] = p[0] * x[0] + x[n - 1];
    p -= n;
    for (i = 0; i < n; i++)
        p[i] += x[i] * p[n];
    q = out + n * l - 1;
    for (k = n * l - 1; k >= 0; k--) {
        *q = *q * 0.5 + x[k % n];
        q--;
    }
}
