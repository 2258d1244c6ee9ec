/* adgen-test
head: particle_update(logw ess)/(logw obs sigma)
arg np: unsigned = 10
arg particles: float[np] = uniform(-2, 2)
arg logw: double[np] = uniform(-1, 0)
arg obs: double = uniform(-0.5, 0.5)
arg sigma: double = uniform(0.6, 1.2)
arg ess: double[1]
head: particle_update(ess)/(particles sigma)
tol: 1e-4
dot_tol: 1e-6
*/
/* Measurement update of a particle filter: Gaussian log-likelihood of an observation for
 * every particle (positions stored in single precision), new log-weights normalized with
 * a max-shifted log-sum-exp, and the effective sample size 1 / sum w^2. */
#include <math.h>

static double log_sum_exp(const double *v, unsigned n)
{
    double m = -INFINITY, s = 0.0;
    unsigned i;
    for (i = 0; i < n; ++i)
        m = fmax(m, v[i]);
    for (i = 0; i < n; ++i)
        s += exp(v[i] - m);
    return m + log(s);
}

void particle_update(unsigned np, const float *particles, double *logw, double obs,
                     double sigma, double *ess)
{
    const double half_log_2pi = 0.91893853320467274178;
    double lse, sumsq = 0.0;
    unsigned i;
    for (i = 0; i < np; ++i) {
        double r = (obs - (double)particles[i]) / sigma;
        logw[i] += -0.5 * r * r - log(sigma) - half_log_2pi;
    }
    lse = log_sum_exp(logw, np);
    for (i = 0; i < np; ++i) {
        double w;
        logw[i] -= lse;
        w = exp(logw[i]);
        sumsq += w * w;
    }
    *ess = 1.0 / sumsq;
}
