/* adgen-test
head: scaled(scaled y)/(x)
arg n: int = 6
arg x: double[n] = uniform(0.31, 0.44)
arg y: double[n] = uniform(-1, 1)
*/
/* Mantissas, fractional parts and their neighbours: frexp and modf give a second output
 * through a pointer (an exponent; an integral part, here into an element of an output
 * too), nextafter a step of one ulp; round, lround, trunc and remainder are constant or
 * shifted between their jumps. */
#include <math.h>

double scaled(int n, const double *x, double *y)
{
    double s = 0.0, whole = 0.0;
    int i, e = 0;
    for (i = 0; i < n; i++) {
        double m = frexp(x[i] * 0.5, &e);             /* e = -2 */
        double f = modf(x[i] + 2.0, &whole);          /* 2 + f, f in (0.31, 0.44) */
        s += m * m * e + f * whole + nextafter(x[i], 10.0) * x[i]
             + round(2.0 * x[i]) * x[i]
             + (double)lround(2.0 * x[i]) * trunc(x[i] + 1.0) * x[i]
             + remainder(x[i], 0.3) * copysign(x[i], -1.0) + ldexp(x[i], e);
        f = modf(2.0 * x[i] + 1.0, &y[i]);            /* y[i] = 1, with no derivative */
        y[i] += f * f;
    }
    return s;
}
