/* adgen-test
head: settle(y)/(x)
arg n: int = 4
arg x: double[n] = uniform(-1, 1)
arg y: double[n]
tol: 1e-6
atol: 1e-12
sizes: give
*/
/* A fixed-point iteration whose fixed point, y = 0, depends on no input: the adjoint of
 * the fixed point is zero, the tangent and the finite differences of the iterations run
 * are of the size of what the stopping test leaves; `atol` lets them pass. The lengths are
 * given (--size): adgen bounds no index `(i + 1) % n` by n. */
#include <math.h>

void settle(int n, const double *x, double *y)
{
    int i, it = 0;
    double change = 1.0;
    for (i = 0; i < n; i++)
        y[i] = x[i];
#pragma adgen fp_loop
    while (change > 1e-14 && it < 300) {
        change = 0.0;
        for (i = 0; i < n; i++) {
            double z = 0.25 * tanh(y[(i + 1) % n]) * tanh(sin(x[0]));
            change = fmax(change, fabs(z - y[i]));
            y[i] = z;
        }
        it++;
    }
}
