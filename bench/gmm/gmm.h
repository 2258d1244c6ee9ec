/* Gaussian mixture model objective (benchmark model; see gmm.c). */
#ifndef BENCH_GMM_H
#define BENCH_GMM_H

/* Wishart prior on the component precisions: scale gamma, extra degrees of freedom m. */
typedef struct {
    double gamma;
    int m;
} Wishart;

void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err);

#endif
