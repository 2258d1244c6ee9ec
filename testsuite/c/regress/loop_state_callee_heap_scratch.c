/* regress: a fixed-point loop and a checkpointed loop whose bodies call a helper that allocates its own scratch with malloc and frees it: the scratch counted as heap memory the loop writes, which adgen cannot keep, and both directives were refused; a callee's own blocks, out of reach when it returns, are not part of a loop's state */
/* adgen-test
head: solve(out)/(p)
arg n: int = 8
arg nsteps: int = 11
arg p: double[n] = uniform(0.1, 0.5)
arg z: double[n]
arg out: double[1]
sizes: give
*/
#include <math.h>
#include <stdlib.h>

static double smoothed(int n, const double *z, int i)
{
    double *w = malloc((size_t)n * sizeof(double));
    double r;
    int k;
    for (k = 0; k < n; k++)
        w[k] = tanh(z[k]);
    r = 0.25 * (w[(i + 1) % n] + w[(i + n - 1) % n]);
    free(w);
    return r;
}

void solve(int n, int nsteps, const double *p, double *z, double *out)
{
    double change = 1.0, znew;
    int i, t, it = 0;
    for (i = 0; i < n; i++)
        z[i] = 0.0;
#pragma adgen fp_loop
    while (change > 1e-15 && it < 500) {
        change = 0.0;
        for (i = 0; i < n; i++) {
            znew = 0.5 * smoothed(n, z, i) + p[i] * p[i];
            change = fmax(change, fabs(znew - z[i]));
            z[i] = znew;
        }
        it++;
    }
#pragma adgen binomial_ckp(nsteps, 3, 0)
    for (t = 0; t < nsteps; t++) {
        for (i = 0; i < n; i++)
            z[i] = z[i] + 0.1 * (smoothed(n, z, i) - 0.5 * z[i]) * p[i];
    }
    out[0] = 0.0;
    for (i = 0; i < n; i++)
        out[0] += z[i] * z[i] * (1.0 + p[i]);
}
