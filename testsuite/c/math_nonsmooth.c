/* adgen-test
head: nonsmooth_terms(y)/(x z)
arg n: int = 8
arg x: double[n] = uniform(-3, 3)
arg z: double[n] = uniform(-3, 3)
arg y: double[4*n]
*/
/* fabs, fmin, fmax, floor, ceil and fmod: piecewise differentiable; the random inputs
 * stay away from the kinks.  floor/ceil have zero derivative but shift the value; fmod's
 * derivative with respect to its second argument is -trunc(x/y). */
#include <math.h>

void nonsmooth_terms(int n, const double *x, const double *z, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        double a = x[i], b = z[i];
        y[4 * i + 0] = fabs(a) * b + 0.5 * fabs(a * b - 1.0);
        y[4 * i + 1] = fmin(a, b) * fmax(a, 0.5 * b) + fmax(fmin(a, 1.0), -1.0);
        y[4 * i + 2] = a * floor(b) + ceil(a) * b + floor(2.5 * a) + a;
        y[4 * i + 3] = fmod(a, 0.7) + fmod(3.0 * b, fabs(a) + 0.5);
    }
}
