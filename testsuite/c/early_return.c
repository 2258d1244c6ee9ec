/* adgen-test
head: first_crossing(first_crossing)/(y level)
arg n: int = 10
arg y: double[n] = uniform(-1, 1)
arg level: double = uniform(0.1, 0.3)
head: softplus_sum(out)/(x)
arg n: int = 6
arg x: double[n] = {-45.0, -3.2, -0.4, 0.7, 2.5, 41.0}
arg out: double[1]
*/
/* Early returns: first_crossing returns from inside its loop (the time at which a sampled
 * signal first rises through a level, by linear interpolation); softplus has three
 * returns chosen by the value of its argument. */
#include <math.h>

double first_crossing(int n, const double *y, double level)
{
    int i;
    if (n < 2)
        return -1.0;
    for (i = 0; i + 1 < n; i++) {
        if (y[i] < level && y[i + 1] >= level)
            return i + (level - y[i]) / (y[i + 1] - y[i]);
    }
    return (double)(n - 1);
}

static double softplus(double v)
{
    if (v > 30.0)
        return v;
    if (v < -30.0)
        return exp(v);
    return log1p(exp(v));
}

void softplus_sum(int n, const double *x, double *out)
{
    int i;
    out[0] = 0.0;
    for (i = 0; i < n; i++)
        out[0] += softplus(x[i]) * (i + 1);
}
