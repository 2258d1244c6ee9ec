/* adgen-test
head: solve(out)/(p)
arg n: int = 12
arg p: double[n] = uniform(0.1, 0.5)
arg u: double[n]
arg out: double[1]
sizes: give
*/
/* A fixed-point loop (#pragma adgen fp_loop): a nonlinear relaxation iterated until the
 * state stops changing, its boundary values set from the inputs before the loop and
 * never written by it. The adjoint runs passes of the body at the fixed point instead
 * of storing the iterations. */
#include <math.h>

static double relax_point(double left, double right, double mid, double source)
{
    return 0.25 * (left + right) + 0.1 * sin(mid) + source;
}

void solve(int n, const double *p, double *u, double *out)
{
    double unew[64];
    double change = 1.0, d;
    int i, it = 0;
    for (i = 0; i < n; i++)
        u[i] = 0.0;
    u[0] = p[0];
    u[n - 1] = 2.0 * p[n - 1];
#pragma adgen fp_loop
    while (change > 1e-15 && it < 2000) {
        change = 0.0;
        for (i = 1; i < n - 1; i++)
            unew[i] = relax_point(u[i - 1], u[i + 1], u[i], p[i] * p[i]);
        for (i = 1; i < n - 1; i++) {
            d = fabs(unew[i] - u[i]);
            if (d > change)
                change = d;
            u[i] = unew[i];
        }
        it = it + 1;
    }
    out[0] = 0.0;
    for (i = 0; i < n; i++)
        out[0] += u[i] * u[i] * (1.0 + p[i]);
}
