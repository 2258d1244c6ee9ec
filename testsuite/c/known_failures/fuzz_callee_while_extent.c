/* regress: array length inference for an output written by the head in full and updated by a helper inside a while loop (adgen: 'accessed under a condition'); minimized fuzz case */
/* adgen-test
head: fz_head(y)/(x)
arg n: int = 4
arg x: double[n] = uniform(-2, 2)
arg y: double[n]
tol: 1e-5
seed: 27
*/
#include <math.h>

double fz_f3(int m, double *o)
{
    int k1 = 0;
    while (k1 < m) {
        o[1] += 0.125;
        k1 += 2;
    }
    return 3.0;
}

void fz_head(int n, const double *x, double *y)
{
    int i;
    double sink = 0.0;
    for (i = 0; i < n; i++) {
        y[i] = x[i];
    }
    double s1 = fz_f3(n, y);
    sink += s1;
    y[0] += sink;
}
