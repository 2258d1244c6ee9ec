/* adgen-test
head: special_terms(y)/(x w)
arg n: int = 6
arg x: double[n] = uniform(0.3, 4)
arg w: double[n] = uniform(-1.5, 1.5)
arg y: double[3*n]
*/
/* lgamma, erf, hypot, cbrt, expm1 and log1p. */
#include <math.h>

void special_terms(int n, const double *x, const double *w, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        double a = x[i], b = w[i];
        y[3 * i + 0] = lgamma(a) + lgamma(a + b * b) + erf(b);
        y[3 * i + 1] = hypot(a, b) + cbrt(a * b + 10.0) + cbrt(b);
        y[3 * i + 2] = expm1(0.5 * b) * log1p(a) + log1p(expm1(-a));
    }
}
