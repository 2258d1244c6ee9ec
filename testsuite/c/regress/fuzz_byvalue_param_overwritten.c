/* regress: a by-value active parameter overwritten by a ternary and never read again (generated tangent: parameter set but not used, -Werror); minimized fuzz case */
/* adgen-test
head: fz_head(y)/(x a)
arg n: int = 4
arg d: int = 2
arg b: double = 0.75
arg y: double[n*d]
arg x: double[n*d] = uniform(0, 1)
arg a: double = uniform(-1, 1)
tol: 1e-5
sizes: give
seed: 40
*/
#include <math.h>

void fz_head(int n, int d, double b, double *y, const double *x, double a)
{
    int i;
    for (i = 0; i < n * d; i++) {
        y[i] = x[i];
    }
    a = (a / (2.0 + cos(0.3)) <= 0.0) ? -1.25 : b;
}
