/* adgen-test
head: self_update(y)/(x)
arg n: int = 7
arg x: double[n] = uniform(0.2, 1.5)
arg y: double[n]
*/
/* Statements that overwrite what their own right-hand side reads, whose partials (the
 * vector tangent computes them once, before the loop over the directions) must come from
 * the values before the write; a partial read only under the test of a conditional
 * (through a pointer that is null on the last iteration); a singular partial (sqrt at
 * zero, with a zero tangent there); by-value arguments of a call. */
#include <math.h>

static double bump(double s, double t)
{
    return s * sin(t) + exp(-s * t);
}

void self_update(int n, const double *x, double *y)
{
    int i;
    double s = 0.5, t;
    const double *next;
    for (i = 0; i < n; i++) {
        s = s * cos(s) + sin(x[i] * s);
        t = x[i];
        t = t * t * exp(-t);
        next = i + 1 < n ? &x[i + 1] : 0;
        t = next != 0 ? sin(*next) * t : log(t + s);
        y[i] = t * s + sqrt(t * t + s * s) + sqrt(0.0 * t);
        y[i] = bump(y[i] * y[i], s * y[i]) + y[i] * cos(y[i]);
    }
}
