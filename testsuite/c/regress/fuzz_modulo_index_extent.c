/* regress: array length inference through a modulo index z[(i + 2) % 16] and a helper's u[(j + 1) % 4] (adgen: cannot tell how many elements); minimized fuzz case */
/* adgen-test
head: fz_head(y z)/(z)
arg n: int = 4
arg d: int = 4
arg y: double[n]
arg z: double[n*d]
tol: 1e-5
seed: 5
*/
#include <math.h>

double fz_f1(int m, const double *u)
{
    int j;
    for (j = 0; j < m; j++) {
        double s1 = 0.5;
        /* (the element was read under `j > 2 ? ... : s1`; an access a condition on
         * integers guards no longer gives a length: regress/guarded_access_in_expression.c) */
        s1 = u[(j + 1) % 4] > s1 ? u[(j + 1) % 4] : s1;
    }
    return 0.5;
}

void fz_head(int n, int d, double *y, double *z)
{
    double sink = 0.0;
    for (int i = 0; i < n; i++) {
        y[i] = z[(i + 2) % 16];
    }
    double s3 = fz_f1(d, y);
    sink += s3;
    y[0] = sink;
}
