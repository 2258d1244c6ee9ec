/* Dense in-place kernels (benchmark model; see dense.c). */
#ifndef BENCH_DENSE_H
#define BENCH_DENSE_H

void dense_objective(int n, const double *a, const double *c, double *out);

#endif
