/* adgen-test
head: fit_loss(loss)/(params)
arg n: int = 7
arg params: double[3] = uniform(0.5, 1.5)
arg t: double[n] = uniform(0, 2)
arg obs: double[n] = uniform(0, 2)
arg loss: double[2]
*/
/* Robust fit of a decaying exponential: static helpers (one static inline), called with
 * active and passive arguments.  loss[0] is a pseudo-Huber loss, loss[1] least squares. */
#include <math.h>

static double sq(double v)
{
    return v * v;
}

static inline double pseudo_huber(double r, double delta)
{
    return delta * delta * (sqrt(1.0 + sq(r / delta)) - 1.0);
}

static double model(const double *p, double t)
{
    return p[0] * exp(-p[1] * t) + p[2];
}

void fit_loss(int n, const double *params, const double *t, const double *obs, double *loss)
{
    int i;
    loss[0] = 0.0;
    loss[1] = 0.0;
    for (i = 0; i < n; i++) {
        double r = model(params, t[i]) - obs[i];
        loss[0] += pseudo_huber(r, 0.5);
        loss[1] += 0.5 * sq(r);
    }
}
