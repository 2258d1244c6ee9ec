/* adgen-test
head: jacobi_relax(x)/(b x)
arg p: struct SolverParams* = {8, 12, 0.6, 0.5}
arg b: double[8]
arg x: double[8] = uniform(-0.5, 0.5)
*/
/* Weighted Jacobi iterations for the tridiagonal system (2 + shift) x_i - x_{i-1} - x_{i+1}
 * = b_i.  The solver parameters come in a struct through a const pointer; x is in/out
 * (initial guess in, approximate solution out). */
#include <stdlib.h>

struct SolverParams {
    int n;
    int iters;
    double omega;
    double shift;
};

static double neighbours(const struct SolverParams *p, const double *x, int i)
{
    double s = 0.0;
    if (i > 0)
        s += x[i - 1];
    if (i < p->n - 1)
        s += x[i + 1];
    return s;
}

void jacobi_relax(const struct SolverParams *p, const double *b, double *x)
{
    double *xn = malloc((size_t)p->n * sizeof(double));
    double diag = 2.0 + p->shift;
    int it, i;
    for (it = 0; it < p->iters; it++) {
        for (i = 0; i < p->n; i++)
            xn[i] = (1.0 - p->omega) * x[i] + p->omega * (b[i] + neighbours(p, x, i)) / diag;
        for (i = 0; i < p->n; i++)
            x[i] = xn[i];
    }
    free(xn);
}
