/* adgen-test
head: robust_logsumexp(out)/(x)
arg n: int = 7
arg x: double[n] = uniform(-4, 4)
arg out: double[3]
*/
/* INFINITY and NAN used the usual ways: a running maximum initialised with -INFINITY
 * (stable log-sum-exp), a minimum initialised with INFINITY, and NAN as the "not set yet"
 * marker of a running mean, tested with isnan. */
#include <math.h>

static double logsumexp(int n, const double *x)
{
    double mx = -INFINITY, s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        if (x[i] > mx)
            mx = x[i];
    for (i = 0; i < n; i++)
        s += exp(x[i] - mx);
    return mx + log(s);
}

void robust_logsumexp(int n, const double *x, double *out)
{
    double lo = INFINITY;
    double first_pos = NAN;
    int i;
    for (i = 0; i < n; i++) {
        if (x[i] < lo)
            lo = x[i];
        if (x[i] > 0.0 && isnan(first_pos))
            first_pos = x[i];
    }
    out[0] = logsumexp(n, x);
    out[1] = lo * lo;
    out[2] = isnan(first_pos) ? 0.0 : sqrt(first_pos);
}
