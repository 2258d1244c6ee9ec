/* adgen-test
head: relax(y)/(x)
arg n: int = 5
arg x: double[n] = uniform(0.2, 1.5)
arg y: double[n]
*/
/* A loop body whose call is put in split mode by a directive, followed by a local set
 * from the inputs (recomputed by the backward sweep, not stored) and read by the next
 * statement. The directive is no statement of the body's backward sweep: the
 * recomputation of v must still come before the statements that read it. */
#include <math.h>

static void smooth(int m, double *o, const double *u)
{
    int k;
    for (k = 0; k < m; k++)
        o[k] = sinh(tanh(u[k]));
}

void relax(int n, const double *x, double *y)
{
    int i, k;
    double v, sink = 0.0;
    for (k = 0; k < n; k++)
        y[k] = x[k] * x[k];
    for (i = 0; i < n; i += 2) {
#pragma adgen nocheckpoint
        smooth(n - 1, y, x);
        v = 0.6 * fmax(0.1 * x[2], x[(i + 1) % n] + x[(i + 1) % n]);
        sink = 0.5 * sink + 0.5 * tanh(v);
    }
    y[0] = y[0] + tanh(sink);
}
