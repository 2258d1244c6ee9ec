/* adgen-test
head: openmp_parallel_sum(openmp_parallel_sum)/(mu s x)
arg n: int = 7
arg d: int = 3
arg x: double[n*d] = uniform(-1, 1)
arg mu: double[d] = uniform(-0.5, 0.5)
arg s: double = uniform(0.5, 1.5)
*/
/* A parallel loop that adds one term per point into a sum (reduction(+)), each iteration
 * with scratch of its own (an array and a scalar declared in the loop) and calls of
 * helpers, one of which overwrites a value it needs again (the recording stores it): the
 * adjoint runs these iterations in parallel too, each recorded and at once reversed on
 * its thread's own stack, the adjoints of mu, s and x gathered per thread. */
#include <math.h>

static void centre(int d, const double *x, const double *mu, double *out)
{
    int k;
    for (k = 0; k < d; k++)
        out[k] = x[k] - mu[k];
}

static double folded_norm(int d, const double *v, double s)
{
    double r = 0.0;
    int k;
    for (k = 0; k < d; k++)
        r = 0.5 * r * r + s * v[k] * v[k];
    return r;
}

double openmp_parallel_sum(int n, int d, const double *x, const double *mu, double s)
{
    double total = 0.0;
    int i;
#pragma omp parallel for reduction(+ : total) schedule(static)
    for (i = 0; i < n; i++) {
        double diff[8];
        double q;
        centre(d, &x[i * d], mu, diff);
        q = folded_norm(d, diff, s);
        total += log(1.0 + q) * (1.0 + 0.1 * i);
    }
    return total + 0.5 * s * s;
}
