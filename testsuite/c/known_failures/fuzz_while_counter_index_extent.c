/* regress: array length inference for y read as y[k1] with the counter of a data-dependent while loop (k1 < n && x[k1] < 0.0) (adgen: 'an index of y has no known bound'); minimized fuzz case */
/* adgen-test
head: fz_head(y)/(x a)
arg n: int = 4
arg d: int = 4
arg y: double[n]
arg x: double[n] = uniform(-1, 1)
arg a: double = uniform(-1, 1)
tol: 1e-5
seed: 5
*/
#include <math.h>

void fz_f1(int m, double *o, double beta)
{
    int i;
    for (i = 0; i < m; i++) {
        o[i] = beta;
    }
}

void fz_head(int n, int d, double *y, const double *x, double a)
{
    for (int i = 0; i < n; i++) {
        y[i] = 0.75;
    }
    fz_f1(n, y, 2.5 * atan(hypot(a / (2.0 + a * a), 1.0 + 2.0 / (0.5 + 0.5 * (double)d * (0.5 * (double)d)) * (2.0 / (0.5 + 0.5 * (double)d * (0.5 * (double)d))))));
    int k1 = 0;
    while (k1 < n && x[k1] < 0.0) {
        for (int j = 3; j < n; ++j) {
            a = y[k1];
        }
        k1++;
    }
}
