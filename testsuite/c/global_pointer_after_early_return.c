/* adgen-test
head: relax(relax y)/(x)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
arg y: double[n]
*/
/* A global pointer to the model's work array, set after an early return: every path that
 * reads it sets it first, though the code after the return sits in a branch once the
 * routine has a single exit. */
#include <math.h>

static double *work;

double relax(int n, const double *x, double *y)
{
    double buf[8];
    double s = 0.0;
    int i, it;
    for (i = 0; i < n; i++) {
        if (x[i] > 10.0)
            return x[i];
        y[i] = 0.5 * x[i];
    }
    work = buf;
    for (i = 0; i < n; i++)
        work[i] = sin(x[i]);
    for (it = 0; it < 3; it++) {
        for (i = 1; i < n; i++)
            work[i] = 0.5 * (work[i] + work[i - 1] * y[i]);
    }
    for (i = 0; i < n; i++) {
        y[i] += work[i];
        s += work[i] * work[i];
    }
    return s;
}
