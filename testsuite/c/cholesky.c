/* adgen-test
head: cholesky_logdet(out)/(a)
arg n: int = 4
arg a: double[n*n] = uniform(-1, 1)
arg out: double[n*n+1]
*/
/* Cholesky factorisation of S = A A^T + n I (SPD) with triangular loop bounds depending on
 * the outer index, sqrt on the diagonal, then log det S = 2 sum log L_ii.  Outputs L
 * (row-major, upper part zero) and the log-determinant. */
#include <math.h>
#include <stdlib.h>

void cholesky_logdet(int n, const double *a, double *out)
{
    double *s = malloc((size_t)(n * n) * sizeof(double));
    double *l = out;
    double logdet = 0.0;
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double v = (i == j) ? n : 0.0;
            for (k = 0; k < n; k++)
                v += a[i * n + k] * a[j * n + k];
            s[i * n + j] = v;
        }
    for (i = 0; i < n * n; i++)
        l[i] = 0.0;
    for (j = 0; j < n; j++) {
        double d = s[j * n + j];
        for (k = 0; k < j; k++)
            d -= l[j * n + k] * l[j * n + k];
        l[j * n + j] = sqrt(d);
        for (i = j + 1; i < n; i++) {
            double v = s[i * n + j];
            for (k = 0; k < j; k++)
                v -= l[i * n + k] * l[j * n + k];
            l[i * n + j] = v / l[j * n + j];
        }
        logdet += 2.0 * log(l[j * n + j]);
    }
    out[n * n] = logdet;
    free(s);
}
