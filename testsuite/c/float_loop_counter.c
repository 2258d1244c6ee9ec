/* adgen-test
head: decay_chain(amounts)/(amounts rates dt)
arg amounts: double[3] = {1.0, 0.2, 0.0}
arg rates: double[2] = uniform(0.5, 1.5)
arg dt: double = 0.0137
arg tend: double = 0.5
*/
/* Time loop with a floating-point counter, as quick simulation scripts are written:
 * `for (t = 0.0; t < tend; t += dt)`, the last step shortened to land on tend
 * (fmin).  The number of steps is piecewise constant in dt; the sample dt is away from
 * the switching points.  Explicit midpoint steps of a two-stage decay chain. */
#include <math.h>

static void rhs(const double *y, const double *k, double *dy)
{
    dy[0] = -k[0] * y[0];
    dy[1] = k[0] * y[0] - k[1] * y[1];
    dy[2] = k[1] * y[1];
}

void decay_chain(double *amounts, const double *rates, double dt, double tend)
{
    double t, mid[3], d[3];
    int i;
    for (t = 0.0; t < tend; t += dt) {
        const double h = fmin(dt, tend - t);
        rhs(amounts, rates, d);
        for (i = 0; i < 3; i++)
            mid[i] = amounts[i] + 0.5 * h * d[i];
        rhs(mid, rates, d);
        for (i = 0; i < 3; i++)
            amounts[i] += h * d[i];
    }
}
