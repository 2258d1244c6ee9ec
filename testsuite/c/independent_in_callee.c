/* adgen-test
head: independent_in_callee(out)/(p u)
arg n: int = 5
arg p: double[3] = uniform(0.5, 1.5)
arg u: double[n] = uniform(-1, 1)
arg out: double[1]
*/
/* A loop under `#pragma adgen independent` in a callee that runs in split mode (its
 * forward sweep in one call, its backward sweep in another: the gathered adjoints pass
 * from one to the other on the stack), called several times; its sum is the callee's
 * result. Beside it, loops the directive cannot take one iteration at a time, reversed
 * together with a warning: one writes an element of an array that outlives it, one
 * carries a scalar from one iteration to the next. */
#include <math.h>

static double energy(int n, const double *p, const double *u, double shift)
{
    double e = 0.0;
    double t;
    int i;
#pragma adgen independent
    for (i = 0; i < n; i++) {
        t = p[0] * u[i] + shift;
        e += p[1] * t * t + sin(p[2] * t);
    }
    return e;
}

void independent_in_callee(int n, const double *p, double *u, double *out)
{
    double s = 0.0, carried = 0.0;
    int step, i;
    for (step = 0; step < 3; step++) {
#pragma adgen nocheckpoint
        s += energy(n, p, u, 0.1 * step) * s + 1.0;
    }
#pragma adgen independent
    for (i = 0; i < n; i++)
        u[i] = u[i] * u[i] * p[0];
#pragma adgen independent
    for (i = 0; i < n; i++) {
        s += carried * u[i];
        carried = u[i] * p[1];
    }
    out[0] = s;
}
