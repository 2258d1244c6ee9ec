/* The GMM objective of gmm.c with its loop over the points under `#pragma omp parallel
 * for` (bench/openmp.py): each point's scratch is the iteration's own (arrays declared in
 * the loop, for d <= GMM_MAX_D and k <= GMM_MAX_K), its term added into a reduction; the
 * helpers are gmm.c's. */
#define GMM_HELPERS_ONLY
#include "gmm.c"

#define GMM_MAX_D 64
#define GMM_MAX_K 64

void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err)
{
    int ix, ik;
    const double CONSTANT = -n * d * 0.5 * log(2.0 * PI);
    int icf_sz = d * (d + 1) / 2;
    double *Qdiags = malloc((size_t)d * k * sizeof(double));
    double *sum_qs = malloc((size_t)k * sizeof(double));
    double slse, lse_alphas;

    preprocess_qs(d, k, icf, sum_qs, Qdiags);

    slse = 0.0;
#pragma omp parallel for reduction(+ : slse) schedule(static) private(ik)
    for (ix = 0; ix < n; ix++) {
        double xcentered[GMM_MAX_D], Qxcentered[GMM_MAX_D], main_term[GMM_MAX_K];
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
}
