/* regress: a helper updates a 4-element local array of the head through an alias, p1[i] for i < m in a branch that is dead when m = 4 (the primal is clean at -O3; the generated files trip gcc -Warray-bounds at -O3); minimized fuzz case */
/* adgen-test
head: fz_head(y fz_head)/(x)
arg n: int = 4
arg d: int = 3
arg x: double[n] = uniform(-2, 2)
arg y: double[n*d]
tol: 1e-5
sizes: give
seed: 149
*/
#include <math.h>

void fz_f2(int m, double *o)
{
    int i;
    double *p1 = &o[0];
    p1[3] = 3.0 * sin((double)m * (-0.5) * (0.1 * m + 0.5));
    for (i = 0; i < m; i += 2) {
        if (i > 3) {
            p1[i] *= cos(p1[(i + i) % m] + o[(i + i) % 4]);
        }
    }
}

double fz_head(int n, int d, const double *x, double *y)
{
    int i;
    for (i = 0; i < n * d; i++) {
        y[i] = 0.0;
    }
    double t1[4];
    for (i = 0; i < 4; i++) {
        t1[i] = x[i];
    }
    fz_f2(n, t1);
    return t1[1];
}
