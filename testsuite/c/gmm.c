/* adgen-test
head: gmm_objective(err)/(alphas means icf)
arg d: int = 3
arg k: int = 4
arg n: int = 5
arg alphas: double[k]
arg means: double[d*k] = uniform(-2, 2)
arg icf: double[k*d*(d+1)/2] = uniform(-0.5, 0.5)
arg x: double[n*d] = uniform(-2, 2)
arg wishart: Wishart = {1.5, 3}
arg err: double[1]
*/
/* Negative log-likelihood of a Gaussian mixture with a Wishart prior on the precisions,
 * in the style of the ADBench GMM objective (written for this project).  Component j has
 * weight softmax(alphas)_j, mean means[j*d..], and precision factor Q_j = diag(exp(l_j)) +
 * strictly lower part, packed in icf[j*(d(d+1)/2)..] as d log-diagonal entries followed by
 * the lower triangle column by column.  Helpers: arr_max, log-sum-exp, sqnorm, Q x with a
 * lower triangular Q; malloc'd scratch; the Wishart struct is passed by value. */
#include <math.h>
#include <stdlib.h>

typedef struct {
    double gamma;
    int m;
} Wishart;

static double arr_max(int n, const double *x)
{
    double m = x[0];
    int i;
    for (i = 1; i < n; i++)
        if (x[i] > m)
            m = x[i];
    return m;
}

static double logsumexp(int n, const double *x)
{
    double mx = arr_max(n, x), s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += exp(x[i] - mx);
    return log(s) + mx;
}

static double sqnorm(int n, const double *x)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

/* out = Q x, Q = diag(qdiag) + strictly lower triangle ltri (packed column by column) */
static void qtimesx(int d, const double *qdiag, const double *ltri, const double *x, double *out)
{
    int i, j, idx = 0;
    for (i = 0; i < d; i++)
        out[i] = qdiag[i] * x[i];
    for (j = 0; j < d; j++)
        for (i = j + 1; i < d; i++)
            out[i] += ltri[idx++] * x[j];
}

/* log of the multivariate gamma function Gamma_p(a) */
static double log_gamma_distrib(double a, int p)
{
    const double log_pi = 1.1447298858494002;
    double r = 0.25 * p * (p - 1) * log_pi;
    int j;
    for (j = 1; j <= p; j++)
        r += lgamma(a + 0.5 * (1 - j));
    return r;
}

static double log_wishart_prior(int d, int k, Wishart wishart, const double *sum_qs,
                                const double *qdiags, const double *icf)
{
    int icf_sz = d * (d + 1) / 2, j;
    int nn = d + wishart.m + 1;
    double out = 0.0, c;
    for (j = 0; j < k; j++) {
        double frob = sqnorm(d, &qdiags[j * d]) + sqnorm(icf_sz - d, &icf[j * icf_sz + d]);
        out += 0.5 * wishart.gamma * wishart.gamma * frob - wishart.m * sum_qs[j];
    }
    c = nn * d * (log(wishart.gamma) - 0.5 * log(2.0)) - log_gamma_distrib(0.5 * nn, d);
    return out - k * c;
}

static void preprocess_qs(int d, int k, const double *icf, double *sum_qs, double *qdiags)
{
    int icf_sz = d * (d + 1) / 2, j, t;
    for (j = 0; j < k; j++) {
        sum_qs[j] = 0.0;
        for (t = 0; t < d; t++) {
            sum_qs[j] += icf[j * icf_sz + t];
            qdiags[j * d + t] = exp(icf[j * icf_sz + t]);
        }
    }
}

void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err)
{
    const double log_2pi = 1.8378770664093453;
    int icf_sz = d * (d + 1) / 2, i, j, t;
    double *qdiags = malloc((size_t)(d * k) * sizeof(double));
    double *sum_qs = malloc((size_t)k * sizeof(double));
    double *xcentered = malloc((size_t)d * sizeof(double));
    double *qxc = malloc((size_t)d * sizeof(double));
    double *main_term = malloc((size_t)k * sizeof(double));
    double slse = 0.0;

    preprocess_qs(d, k, icf, sum_qs, qdiags);
    for (i = 0; i < n; i++) {
        for (j = 0; j < k; j++) {
            for (t = 0; t < d; t++)
                xcentered[t] = x[i * d + t] - means[j * d + t];
            qtimesx(d, &qdiags[j * d], &icf[j * icf_sz + d], xcentered, qxc);
            main_term[j] = alphas[j] + sum_qs[j] - 0.5 * sqnorm(d, qxc);
        }
        slse += logsumexp(k, main_term);
    }
    err[0] = -n * d * 0.5 * log_2pi + slse - n * logsumexp(k, alphas)
             + log_wishart_prior(d, k, wishart, sum_qs, qdiags, icf);
    free(qdiags);
    free(sum_qs);
    free(xcentered);
    free(qxc);
    free(main_term);
}
