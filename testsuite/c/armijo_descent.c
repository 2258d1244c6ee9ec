/* adgen-test
head: descend(x fval)/(x scale)
arg n: int = 4
arg x: double[n] = {0.3, -0.4, 0.8, 0.1}
arg scale: double[n] = uniform(0.5, 1.5)
arg iters: int = 3
arg fval: double[1]
*/
/* Gradient descent with Armijo backtracking on a scaled smooth objective (a sum of
 * log-cosh terms plus a coupling term): the step length is halved inside a while loop
 * whose exit depends on active values, then the iterate is updated.  The step is
 * piecewise constant in the inputs; the sample is away from the switching points. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double objective(int n, const double *x, const double *scale, double *grad)
{
    double f = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        f += log(cosh(scale[i] * x[i]));
        grad[i] = scale[i] * tanh(scale[i] * x[i]);
    }
    for (i = 0; i + 1 < n; i++) {
        double c = x[i] - x[i + 1];
        f += 0.25 * c * c;
        grad[i] += 0.5 * c;
        grad[i + 1] -= 0.5 * c;
    }
    return f;
}

void descend(int n, double *x, const double *scale, int iters, double *fval)
{
    double *g = malloc((size_t)n * sizeof *g);
    double *gt = malloc((size_t)n * sizeof *gt);
    double *xt = malloc((size_t)n * sizeof *xt);
    double f = objective(n, x, scale, g);
    int it, i;
    for (it = 0; it < iters; it++) {
        double t = 4.0, gg = 0.0, ft;
        for (i = 0; i < n; i++)
            gg += g[i] * g[i];
        for (;;) {
            for (i = 0; i < n; i++)
                xt[i] = x[i] - t * g[i];
            ft = objective(n, xt, scale, gt);
            if (ft <= f - 1e-4 * t * gg || t < 1e-6)
                break;
            t *= 0.5;
        }
        memcpy(x, xt, n * sizeof *x);
        memcpy(g, gt, n * sizeof *g);
        f = ft;
    }
    *fval = f;
    free(g);
    free(gt);
    free(xt);
}
