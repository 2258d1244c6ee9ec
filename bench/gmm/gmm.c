/* Negative log-likelihood of a Gaussian mixture model with a Wishart prior on the component
 * precisions, in the style of the ADBench GMM objective (written for this project).
 *
 * d dimensions, k components, n points.
 *   alphas[k]            unnormalised log weights (the weights are softmax(alphas));
 *   means[k*d]           component means, one row of d per component;
 *   icf[k*d*(d+1)/2]     inverse Cholesky factors Q_j of the precisions, d*(d+1)/2 entries per
 *                        component: first the d log-diagonal entries (Q_j(t,t) = exp(icf)),
 *                        then the strictly lower triangle, column by column;
 *   x[n*d]               data points;
 *   wishart              prior parameters, by value;
 *   err[0]               output.
 *
 * err = -n d/2 log(2 pi) + sum_i logsumexp_j(alpha_j + sum_t log Q_j(t,t)
 *                                             - |Q_j (x_i - mu_j)|^2 / 2)
 *       - n logsumexp(alphas) + log_wishart_prior
 */
#include <math.h>
#include <stdlib.h>

#include "gmm.h"

#define PI 3.14159265358979323846

static double arr_max(int n, const double *x)
{
    double m = x[0];
    int i;
    for (i = 1; i < n; i++) {
        if (m < x[i])
            m = x[i];
    }
    return m;
}

static double sqnorm(int n, const double *x)
{
    double res = 0.0;
    int i;
    for (i = 0; i < n; i++)
        res = res + x[i] * x[i];
    return res;
}

/* out = x - y */
static void subtract(int d, const double *x, const double *y, double *out)
{
    int i;
    for (i = 0; i < d; i++)
        out[i] = x[i] - y[i];
}

/* out = Q x with Q lower triangular: diagonal Ldiag, strictly lower part ltri packed column
 * by column (ltri[0..d-2] is column 0 below the diagonal, and so on). */
static void Qtimesx(int d, const double *Ldiag, const double *ltri, const double *x,
                    double *out)
{
    int i, j, Lparamsidx = 0;
    for (i = 0; i < d; i++)
        out[i] = Ldiag[i] * x[i];
    for (i = 0; i < d; i++) {
        for (j = i + 1; j < d; j++) {
            out[j] = out[j] + ltri[Lparamsidx] * x[i];
            Lparamsidx++;
        }
    }
}

static double log_sum_exp(int n, const double *x)
{
    double mx = arr_max(n, x);
    double semx = 0.0;
    int i;
    for (i = 0; i < n; i++)
        semx = semx + exp(x[i] - mx);
    return log(semx) + mx;
}

/* log of the multivariate gamma function Gamma_p(a) */
static double log_gamma_distrib(double a, int p)
{
    double out = 0.25 * p * (p - 1) * log(PI);
    int j;
    for (j = 1; j <= p; j++)
        out = out + lgamma(a + 0.5 * (1 - j));
    return out;
}

static double log_wishart_prior(int p, int k, Wishart wishart, const double *sum_qs,
                                const double *Qdiags, const double *icf)
{
    int ik;
    int n = p + wishart.m + 1;
    int icf_sz = p * (p + 1) / 2;
    double C = n * p * (log(wishart.gamma) - 0.5 * log(2.0)) - log_gamma_distrib(0.5 * n, p);
    double out = 0.0;
    for (ik = 0; ik < k; ik++) {
        double frobenius = sqnorm(p, &Qdiags[ik * p]) + sqnorm(icf_sz - p, &icf[ik * icf_sz + p]);
        out = out + 0.5 * wishart.gamma * wishart.gamma * frobenius - wishart.m * sum_qs[ik];
    }
    return out - k * C;
}

/* Qdiags = exp(log-diagonal of each Q_j), sum_qs[j] = sum of that log-diagonal. */
static void preprocess_qs(int d, int k, const double *icf, double *sum_qs, double *Qdiags)
{
    int ik, id;
    int icf_sz = d * (d + 1) / 2;
    for (ik = 0; ik < k; ik++) {
        sum_qs[ik] = 0.0;
        for (id = 0; id < d; id++) {
            double q = icf[ik * icf_sz + id];
            sum_qs[ik] = sum_qs[ik] + q;
            Qdiags[ik * d + id] = exp(q);
        }
    }
}

#ifndef GMM_HELPERS_ONLY     /* (gmm_omp.c: the same helpers, the point loop under OpenMP) */
void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err)
{
    int ix, ik;
    const double CONSTANT = -n * d * 0.5 * log(2.0 * PI);
    int icf_sz = d * (d + 1) / 2;
    double *Qdiags = malloc((size_t)d * k * sizeof(double));
    double *sum_qs = malloc((size_t)k * sizeof(double));
    double *xcentered = malloc((size_t)d * sizeof(double));
    double *Qxcentered = malloc((size_t)d * sizeof(double));
    double *main_term = malloc((size_t)k * sizeof(double));
    double slse, lse_alphas;

    preprocess_qs(d, k, icf, sum_qs, Qdiags);

    slse = 0.0;
    /* each point fills scratch of its own and adds into one sum: adgen's adjoint may reverse
     * the points one at a time (docs/directives.md) */
#pragma adgen independent
    for (ix = 0; ix < n; ix++) {
        for (ik = 0; ik < k; ik++) {
            subtract(d, &x[ix * d], &means[ik * d], xcentered);
            Qtimesx(d, &Qdiags[ik * d], &icf[ik * icf_sz + d], xcentered, Qxcentered);
            main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(d, Qxcentered);
        }
        slse = slse + log_sum_exp(k, main_term);
    }

    lse_alphas = log_sum_exp(k, alphas);
    *err = CONSTANT + slse - n * lse_alphas;
    *err = *err + log_wishart_prior(d, k, wishart, sum_qs, Qdiags, icf);

    free(Qdiags);
    free(sum_qs);
    free(xcentered);
    free(Qxcentered);
    free(main_term);
}
#endif
