/* Hand-written adjoint of gmm_objective (gmm.c), the reference adgen is measured against.
 *
 * It is what a careful expert (or Tapenade, with its usual store-what-is-overwritten
 * strategy and no extra cleverness) would write: one forward pass that computes the
 * objective and stores the per-point intermediates the reverse pass needs, then one reverse
 * pass over the points in reverse order.
 *   stored per point i and component j:  q_ij = Q_j (x_i - mu_j)      (n*k*d doubles)
 *                                        w_ij = softmax_j(main_term_i)  (n*k doubles)
 *   recomputed in the reverse pass:      x_i - mu_j  (a subtraction: cheaper than storing)
 *
 * Signature and semantics follow adgen's (Tapenade's) conventions for the head
 * gmm_objective(err)/(alphas means icf): alphasb, meansb and icfb are set (not accumulated),
 * *errb is the seed and is consumed (zero on return), *err is computed as well.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmm.h"

#define PI 3.14159265358979323846

void gmm_objective_hand_b(int d, int k, int n, const double *alphas, double *alphasb,
                          const double *means, double *meansb, const double *icf,
                          double *icfb, const double *x, Wishart wishart, double *err,
                          double *errb)
{
    const int icf_sz = d * (d + 1) / 2;
    const int ltri_sz = icf_sz - d;
    const double eb = *errb;
    const double g2 = wishart.gamma * wishart.gamma;
    const int nn = d + wishart.m + 1;
    double *Qdiags = malloc((size_t)d * k * sizeof(double));
    double *Qdiagsb = malloc((size_t)d * k * sizeof(double));
    double *sum_qs = malloc((size_t)k * sizeof(double));
    double *sum_qsb = malloc((size_t)k * sizeof(double));
    double *main_term = malloc((size_t)k * sizeof(double));
    double *xc = malloc((size_t)d * sizeof(double));
    double *xcb = malloc((size_t)d * sizeof(double));
    double *qb = malloc((size_t)d * sizeof(double));
    double *Qxc_all = malloc((size_t)n * k * d * sizeof(double));   /* q_ij */
    double *w_all = malloc((size_t)n * k * sizeof(double));         /* w_ij */
    double slse = 0.0, lse_alphas, amax, asum, prior, C;
    int i, j, r, c, t, idx;

    /* ---------------- forward pass ---------------- */
    for (j = 0; j < k; j++) {
        const double *lq = &icf[j * icf_sz];
        double s = 0.0;
        for (t = 0; t < d; t++) {
            s += lq[t];
            Qdiags[j * d + t] = exp(lq[t]);
        }
        sum_qs[j] = s;
    }

    for (i = 0; i < n; i++) {
        const double *xi = &x[i * d];
        double mx, se, lse;
        for (j = 0; j < k; j++) {
            const double *mu = &means[j * d];
            const double *Ld = &Qdiags[j * d];
            const double *lt = &icf[j * icf_sz + d];
            double *q = &Qxc_all[((size_t)i * k + j) * d];
            double sq = 0.0;
            for (t = 0; t < d; t++) {
                xc[t] = xi[t] - mu[t];
                q[t] = Ld[t] * xc[t];
            }
            idx = 0;
            for (c = 0; c < d; c++)
                for (r = c + 1; r < d; r++)
                    q[r] += lt[idx++] * xc[c];
            for (t = 0; t < d; t++)
                sq += q[t] * q[t];
            main_term[j] = alphas[j] + sum_qs[j] - 0.5 * sq;
        }
        mx = main_term[0];
        for (j = 1; j < k; j++)
            if (mx < main_term[j])
                mx = main_term[j];
        se = 0.0;
        for (j = 0; j < k; j++) {
            double e = exp(main_term[j] - mx);
            w_all[(size_t)i * k + j] = e;
            se += e;
        }
        lse = log(se) + mx;
        for (j = 0; j < k; j++)
            w_all[(size_t)i * k + j] /= se;          /* softmax weights */
        slse += lse;
    }

    amax = alphas[0];
    for (j = 1; j < k; j++)
        if (amax < alphas[j])
            amax = alphas[j];
    asum = 0.0;
    for (j = 0; j < k; j++)
        asum += exp(alphas[j] - amax);
    lse_alphas = log(asum) + amax;

    C = nn * d * (log(wishart.gamma) - 0.5 * log(2.0));
    {
        double lgd = 0.25 * d * (d - 1) * log(PI);
        for (t = 1; t <= d; t++)
            lgd += lgamma(0.5 * nn + 0.5 * (1 - t));
        C -= lgd;
    }
    prior = 0.0;
    for (j = 0; j < k; j++) {
        double frob = 0.0;
        for (t = 0; t < d; t++)
            frob += Qdiags[j * d + t] * Qdiags[j * d + t];
        for (t = 0; t < ltri_sz; t++)
            frob += icf[j * icf_sz + d + t] * icf[j * icf_sz + d + t];
        prior += 0.5 * g2 * frob - wishart.m * sum_qs[j];
    }
    prior -= k * C;

    *err = -n * d * 0.5 * log(2.0 * PI) + slse - n * lse_alphas + prior;

    /* ---------------- reverse pass ---------------- */
    /* log_wishart_prior */
    for (j = 0; j < k; j++) {
        sum_qsb[j] = -wishart.m * eb;
        for (t = 0; t < d; t++)
            Qdiagsb[j * d + t] = eb * g2 * Qdiags[j * d + t];
        for (t = 0; t < ltri_sz; t++)
            icfb[j * icf_sz + d + t] = eb * g2 * icf[j * icf_sz + d + t];
    }
    /* -n * log_sum_exp(alphas) */
    for (j = 0; j < k; j++)
        alphasb[j] = -n * eb * exp(alphas[j] - lse_alphas);
    memset(meansb, 0, (size_t)k * d * sizeof(double));

    /* the points, in reverse order */
    for (i = n - 1; i >= 0; i--) {
        const double *xi = &x[i * d];
        for (j = k - 1; j >= 0; j--) {
            const double *mu = &means[j * d];
            const double *Ld = &Qdiags[j * d];
            const double *lt = &icf[j * icf_sz + d];
            const double *q = &Qxc_all[((size_t)i * k + j) * d];
            double *Ldb = &Qdiagsb[j * d];
            double *ltb = &icfb[j * icf_sz + d];
            double *mub = &meansb[j * d];
            /* slse += log_sum_exp(main_term): d slse / d main_term[j] = w_ij */
            double mtb = eb * w_all[(size_t)i * k + j];
            alphasb[j] += mtb;
            sum_qsb[j] += mtb;
            /* main_term[j] = ... - 0.5 * sqnorm(q) */
            for (t = 0; t < d; t++) {
                qb[t] = -mtb * q[t];
                xc[t] = xi[t] - mu[t];               /* recomputed */
            }
            /* q = Q xc, strictly lower part, in reverse */
            for (t = 0; t < d; t++)
                xcb[t] = 0.0;
            idx = ltri_sz - 1;
            for (c = d - 1; c >= 0; c--) {
                double acc = 0.0;
                for (r = d - 1; r > c; r--) {
                    ltb[idx] += qb[r] * xc[c];
                    acc += lt[idx] * qb[r];
                    idx--;
                }
                xcb[c] += acc;
            }
            /* diagonal part, then xc = x_i - mu_j */
            for (t = 0; t < d; t++) {
                Ldb[t] += qb[t] * xc[t];
                xcb[t] += Ld[t] * qb[t];
                mub[t] -= xcb[t];
            }
        }
    }

    /* preprocess_qs: Qdiags = exp(log-diagonal), sum_qs = sum of the log-diagonal */
    for (j = 0; j < k; j++)
        for (t = 0; t < d; t++)
            icfb[j * icf_sz + t] = Qdiagsb[j * d + t] * Qdiags[j * d + t] + sum_qsb[j];

    *errb = 0.0;
    free(Qdiags);
    free(Qdiagsb);
    free(sum_qs);
    free(sum_qsb);
    free(main_term);
    free(xc);
    free(xcb);
    free(qb);
    free(Qxc_all);
    free(w_all);
}
