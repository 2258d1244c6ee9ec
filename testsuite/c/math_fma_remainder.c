/* adgen-test
head: fused(y)/(x)
arg x: double[4] = uniform(0.3, 0.9)
arg y: double[2]
*/
/* fma and remainder: fma(a, b, c) = a b + c has the partials b, a
 * and 1; remainder(a, b) = a - n b, n the nearest integer to a / b. */
#include <math.h>

void fused(const double *x, double *y)
{
    y[0] = fma(x[0], x[1], x[2]) * fma(x[3], x[3], 0.5);
    y[1] = remainder(7.0 * x[1], x[2]) + remainder(x[3], 0.25);
}
