/* regress: a saturated output (tanh of a sum near 3.5) whose derivatives lie below what finite differences of the primal can resolve (the two step sizes agreed by chance); the checker allows the rounding of the differenced values; minimized fuzz case */
/* adgen-test
head: fz_head(y fz_head)/(x)
arg n: int = 7
arg y: double[n]
arg c: double[n]
arg x: double[n] = uniform(0, 1)
tol: 1e-5
sizes: give
seed: 98
*/
#include <math.h>

double fz_f1(int m, const double *u)
{
    return 3.0 * tanh(u[2] + 0.1 * m) + 0.5;
}

double fz_f3(int m, const double *u, double alpha)
{
    alpha = alpha;
    return 0.5 * ((0.5 + 0.5) / (2.0 + u[2] * u[4] * (u[2] * u[4])) + fz_f1(m, u));
}

double fz_head(int n, double *y, const double *c, double *x)
{
    int i;
    int l;
    double sink = 0.0;
    for (i = 0; i < n; i++) {
        y[i] = 0.5;
    }
    for (i = 0; i < n; i++) {
        double s1 = 3.0 * 0.5;
        sink += 0.1 * s1;
    }
    for (i = 0; i < n; i++) {
        if (x[i] >= 0.5 || 0.5 < (-0.3)) {
            for (l = 0; l <= n - 1; l++) {
                double s2 = fz_f3(n, x, (l < 4) ? c[3] * y[l] : 1.5 / 2.0);
                sink += 0.1 * s2;
            }
        }
    }
    return tanh(2.5 + tanh(sink));
}
