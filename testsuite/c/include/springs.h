#ifndef SPRINGS_H
#define SPRINGS_H

#include <math.h>
#include <stddef.h>

#define MAX_NODES 8
#define DIM 2

typedef float real_t;

/* chain of point masses joined by springs */
typedef struct {
    size_t nnodes;
    real_t rest_len;
    double stiffness;
    double damping;
    double mass[MAX_NODES];
} Chain;

typedef struct {
    double x[MAX_NODES][DIM];
    double v[MAX_NODES][DIM];
} ChainState;

static inline double vec_norm2(const double *a)
{
    return sqrt(a[0] * a[0] + a[1] * a[1]);
}

#define AXPY2(y, alpha, x)          \
    do {                            \
        (y)[0] += (alpha) * (x)[0]; \
        (y)[1] += (alpha) * (x)[1]; \
    } while (0)

#endif
