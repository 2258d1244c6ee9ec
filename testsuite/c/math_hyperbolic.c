/* adgen-test
head: hyperbolic_terms(y)/(x)
arg n: int = 7
arg x: double[n] = uniform(-2, 2)
arg y: double[3*n]

*/
/* sinh, cosh and tanh: a catenary, a soft sign and a tanh-based activation.
 * With `sizes: infer`, adgen must find the extents of the arrays by itself. */
#include <math.h>

void hyperbolic_terms(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        y[3 * i + 0] = 1.5 * cosh(x[i] / 1.5) - 1.5;
        y[3 * i + 1] = sinh(x[i]) / cosh(x[i]) - tanh(x[i]) + sinh(0.5 * x[i]);
        y[3 * i + 2] = 0.5 * x[i] * (1.0 + tanh(0.8 * (x[i] + 0.04 * x[i] * x[i] * x[i])));
    }
}
