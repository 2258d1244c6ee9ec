/* adgen-test
head: f(y)/(x)
arg x: double[3] = uniform(0.5, 1.5)
arg y: double[1]
*/
/* A switch whose only group is the default (a case label joined to it): nothing to test,
 * the selector is evaluated for the effects of its calls (the helper's), not into an
 * unused variable. */
#include <math.h>

static int calls = 0;

static int count(double v)
{
    calls = calls + 1;
    return v > 1.0;
}

void f(const double *x, double *y)
{
    double s = x[0];
    switch (x[1] > cos(x[2])) {
    default:
        /* falls through */
    case 1:
        s = s * x[1];
        break;
    }
    switch (count(x[2])) {
    default:
        s = s + x[2] * x[2];
    }
    y[0] = s;
}
