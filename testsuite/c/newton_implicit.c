/* adgen-test
head: implicit_cubic(x)/(a b)
arg n: int = 5
arg a: double[n] = uniform(0.5, 2.0)
arg b: double[n] = uniform(-3, 3)
arg x: double[n]
*/
/* Solve x^3 + a x - b = 0 per element with Newton's method to a tolerance (the iteration
 * count depends on the data); a safeguarded while loop with a data-dependent exit, as
 * an equation-of-state or return-mapping routine would do.  Differentiating through the
 * converged iterations gives the implicit-function derivative. */
#include <math.h>

static double newton_cubic(double a, double b, double tol, int maxit)
{
    double x = b / (1.0 + a);   /* starting guess */
    int it = 0;
    double step = 1.0;
    while (fabs(step) > tol && it < maxit) {
        double f = x * x * x + a * x - b;
        double df = 3.0 * x * x + a;
        step = f / df;
        x -= step;
        ++it;
    }
    return x;
}

void implicit_cubic(int n, const double *a, const double *b, double *x)
{
    int i;
    for (i = 0; i < n; i++)
        x[i] = newton_cubic(a[i], b[i], 1e-13, 50);
}
