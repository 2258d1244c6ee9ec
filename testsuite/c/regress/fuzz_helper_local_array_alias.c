/* regress: a helper returns p1[0] through a local pointer p1 = t1 + 1 into its local array t1 filled from its input v; the adjoint must flow back through the alias to v (fz_head_b gave xb[0] = 0); minimized fuzz case */
/* adgen-test
head: fz_head(y)/(x)
arg n: int = 7
arg x: double[n] = uniform(-1, 1)
arg y: double[n]
tol: 1e-5
sizes: give
seed: 15
*/
#include <math.h>

double fz_f1(const double *v)
{
    double t1[6];
    for (int i = 0; i < 6; i++) {
        t1[i] = v[i / 2];
    }
    double *p1 = t1 + 1;
    return p1[0];
}

void fz_head(int n, const double *x, double *y)
{
    int i;
    double sink = 0.0;
    for (i = 0; i < n; i++) {
        y[i] = 2.5;
    }
    double s1 = fz_f1(x);
    sink += s1;
    y[0] = sink;
}
