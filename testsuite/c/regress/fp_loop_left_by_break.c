/* adgen-test
head: solve(out)/(p)
arg n: int = 10
arg p: double[n] = uniform(0.1, 0.5)
arg z: double[n]
arg out: double[1]
sizes: give
*/
/* A fixed-point loop written as `while (1) { ...; if (converged) break; }`: the break
 * turns into a flag set before the loop, and the directive still stands just before it
 * (it used to be refused as not standing before a loop). */
#include <math.h>

void solve(int n, const double *p, double *z, double *out)
{
    int it = 0, i;
    double change, znew;
    for (i = 0; i < n; i++)
        z[i] = 0.0;
#pragma adgen fp_loop
    while (1) {
        change = 0.0;
        for (i = 0; i < n; i++) {
            znew = 0.5 * tanh(z[(i + 1) % n]) + p[i] * p[i];
            change = fmax(change, fabs(znew - z[i]));
            z[i] = znew;
        }
        it++;
        if (change < 1e-15 || it > 500)
            break;
    }
    out[0] = 0.0;
    for (i = 0; i < n; i++)
        out[0] += z[i] * z[i] * (1.0 + p[i]);
}
