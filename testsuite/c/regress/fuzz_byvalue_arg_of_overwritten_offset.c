/* regress: z[3] passed by value to a helper that overwrites z[3..5] through the offset pointer &z[3] and uses the value for y[17..19]; the adjoint of z[3] must come only from y's seeds (fz_head_b gave a wrong zb[3]); minimized fuzz case */
/* adgen-test
head: fz_head(y z)/(x z)
arg n: int = 7
arg d: int = 3
arg x: double[n] = uniform(0.2, 1.5)
arg z: double[n]
arg y: double[n*d]
tol: 1e-5
sizes: give
seed: 98
*/
#include <math.h>

double fz_f1(int m, double *w, double alpha, double beta, double *o)
{
    int i;
    for (i = 0; i < m; i++) {
        w[i] = 0.5;
    }
    for (i = 0; i < m; i++) {
        o[i] = hypot(beta, 1.0 + alpha * alpha);
    }
    return 0.8;
}

void fz_head(int n, int d, const double *x, double *z, double *y)
{
    int i;
    for (i = 0; i < n * d; i++) {
        y[i] = 0.5;
    }
    double acc1 = 0.0;
    acc1 += fz_f1(d, &z[3], x[3], z[3], &y[17]);
}
