/* Shared header of the adgen C test programs (header_grid.c, header_regression.c):
 * typedefs, a struct type, function-like macros and a static inline helper. */
#ifndef ADGEN_TEST_VEC_UTILS_H
#define ADGEN_TEST_VEC_UTILS_H

typedef double real;

typedef struct {
    int n;          /* grid size */
    real damping;   /* relaxation factor */
} GridCfg;

#define SQR(v) ((v) * (v))
#define IDX2(i, j, ncols) ((i) * (ncols) + (j))
#define CLAMP(v, lo, hi) ((v) < (lo) ? (lo) : ((v) > (hi) ? (hi) : (v)))
#define LERP(a, b, t) ((a) + ((b) - (a)) * (t))
#define RIDGE_LAMBDA 0.05

static inline real dot_n(int n, const real *a, const real *b)
{
    real s = 0;
    int i;
    for (i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

#endif
