/* Extended Rosenbrock function, the model of adgen's demo (make demo).
 *
 *   f(x) = sum_{i=0}^{n-2}  a (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
 *
 * Its minimum is f = 0 at x = (1, ..., 1).
 */
#include <math.h>

/* One link of the chain. */
static double link_term(double a, double xi, double xnext)
{
    double u = xnext - xi * xi;
    double v = 1.0 - xi;
    return a * u * u + v * v;
}

double rosenbrock(int n, const double *x, double a)
{
    double f = 0.0;
    for (int i = 0; i + 1 < n; i++)
        f += link_term(a, x[i], x[i + 1]);
    return f;
}
