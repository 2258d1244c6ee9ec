/* adgen-test
head: scratch_energy(e)/(x mu w)
arg n: int = 4
arg k: int = 3
arg d: int = 5
arg x: double[n*d] = uniform(-1, 1)
arg mu: double[k*d] = uniform(-1, 1)
arg w: double[d] = uniform(0.5, 1.5)
arg e: double[1]
*/
/* Scratch arrays refilled at the top of every iteration from values the loop does not
 * change: the adjoint fills them again in its backward sweep instead of storing them.
 * diff is filled by a call, scaled by an inline loop (written for this project). */
#include <math.h>
#include <stdlib.h>

static void difference(int d, const double *a, const double *b, double *out)
{
    int t;
    for (t = 0; t < d; t++)
        out[t] = a[t] - b[t];
}

static double weighted_sq(int d, const double *v, const double *w)
{
    double s = 0.0;
    int t;
    for (t = 0; t < d; t++)
        s += w[t] * v[t] * v[t];
    return s;
}

void scratch_energy(int n, int k, int d, const double *x, const double *mu,
                    const double *w, double *e)
{
    double *diff = malloc((size_t)d * sizeof(double));
    double *scaled = malloc((size_t)d * sizeof(double));
    int i, j, t;
    *e = 0.0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < k; j++) {
            difference(d, &x[i * d], &mu[j * d], diff);
            for (t = 0; t < d; t++)
                scaled[t] = 0.5 * diff[t] * w[t];
            *e += log(1.0 + weighted_sq(d, scaled, w)) + sin(diff[0]) * scaled[d - 1];
        }
    }
    free(diff);
    free(scaled);
}
