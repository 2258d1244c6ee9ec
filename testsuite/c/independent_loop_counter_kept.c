/* adgen-test
head: f(y f)/(x y)
arg n: int = 3
arg x: double[n] = uniform(0.2, 1)
arg y: double[n] = uniform(0.5, 1)
sizes: give
*/
/* A loop left by a break undoes its counter in the backward sweep (l = l - 1 from the value
 * it left with), and a loop under `#pragma adgen independent` reuses that counter after it:
 * the counter's value before the independent loop is kept, as any counted loop keeps it.
 * Without it the backward sweep started from l = 6, past the end of x and y. */
#include <math.h>

double f(int n, const double *x, double *y)
{
    int l;
    double acc = 0.0;
    for (l = 0; l < n; l++) {
        y[n - 1 - l] = y[n - 1 - l] * sin(x[l]);
        if (l >= 1)
            break;
    }
#pragma adgen independent
    for (l = 0; l < 6; l++) {
        double t = sin(x[l % n]);
        acc += t * t;
    }
    return acc + y[n - 1] * y[n - 2];
}
