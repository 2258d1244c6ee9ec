/* adgen-test
head: observe(out)/(u h)
arg n: int = 7
arg u: double[n] = uniform(-1, 1)
arg h: double = uniform(0.2, 0.4)
arg out: Obs* = handle
field out.nbins: int = 4
field out.grad: double[n - 1]
field out.stats: Stats*
field out.stats.mean: double
field out.stats.var: double
field out.stats.hist: double[out.nbins]
field out.extrema[2]: double
head: observe(out)/(u)
*/
/* Observations of a field written into a pure output handle, as a simulation code fills
 * its diagnostics struct: the gradient of the field (an array the handle points to),
 * smooth extrema (an array inside the struct), and a nested statistics handle (mean,
 * variance and a soft histogram over Gaussian kernels). Every part of the output is
 * written, none read first. */
#include <math.h>

typedef struct {
    double mean, var;
    double *hist;       /* nbins soft counts */
} Stats;

typedef struct {
    int nbins;
    double *grad;       /* n - 1 differences */
    Stats *stats;
    double extrema[2];  /* soft maximum and soft minimum */
} Obs;

static double softmax_of(int n, const double *u, double sharp)
{
    double m = u[0], s = 0.0;
    int i;
    for (i = 1; i < n; i++)
        m = fmax(m, u[i]);
    for (i = 0; i < n; i++)
        s += exp(sharp * (u[i] - m));
    return m + log(s) / sharp;
}

static void histogram(int n, const double *u, Stats *st, int nbins)
{
    int b, i;
    for (b = 0; b < nbins; b++) {
        double centre = -1.0 + (2.0 * b + 1.0) / nbins, c = 0.0;
        for (i = 0; i < n; i++) {
            double d = (u[i] - centre) * nbins;
            c += exp(-d * d);
        }
        st->hist[b] = c / n;
    }
}

void observe(int n, const double *u, double h, Obs *out)
{
    double neg[16];
    int i;
    for (i = 0; i + 1 < n; i++)
        out->grad[i] = (u[i + 1] - u[i]) / h;
    out->stats->mean = 0.0;
    for (i = 0; i < n; i++)
        out->stats->mean += u[i] / n;
    out->stats->var = 0.0;
    for (i = 0; i < n; i++)
        out->stats->var += (u[i] - out->stats->mean) * (u[i] - out->stats->mean) / n;
    histogram(n, u, out->stats, out->nbins);
    for (i = 0; i < n; i++)
        neg[i] = -u[i];
    out->extrema[0] = softmax_of(n, u, 8.0);
    out->extrema[1] = -softmax_of(n, neg, 8.0);
}
