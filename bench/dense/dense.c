/* Dense linear algebra in place, the kernels of a Gaussian-process or a Newton step:
 *
 *   b = U^T C          U the strict upper triangle of A (a triangular product, in place)
 *   I + A / n = L U    (Doolittle LU in place, no pivoting: the identity keeps it stable)
 *   I + S / n = R^T R  with S = (C + C^T) / 2 (Cholesky in place)
 *
 *   out = sum b_ij^2 / n^2 + sum log |u_ii| + 2 sum log r_ii
 *
 * Each kernel's innermost loop adds into one element (`b[i][j] += a[k][i] * b[k][j]`
 * over k): written for this project in the style of textbook and benchmark-suite code.
 * Head `dense_objective(out)/(a c)`; a and c hold n*n numbers, row by row. */
#include <math.h>
#include <stdlib.h>

#include "dense.h"

static void trmm(int n, const double *a, double *b)
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = i + 1; k < n; k++)
                b[i * n + j] += a[k * n + i] * b[k * n + j];
}

static void lu(int n, double *a)
{
    int i, j, k;
    for (i = 0; i < n; i++) {
        for (j = i; j < n; j++)
            for (k = 0; k < i; k++)
                a[i * n + j] -= a[i * n + k] * a[k * n + j];
        for (j = i + 1; j < n; j++) {
            for (k = 0; k < i; k++)
                a[j * n + i] -= a[j * n + k] * a[k * n + i];
            a[j * n + i] = a[j * n + i] / a[i * n + i];
        }
    }
}

static void cholesky(int n, double *s)
{
    int i, j, k;
    for (j = 0; j < n; j++) {
        for (k = 0; k < j; k++)
            s[j * n + j] -= s[j * n + k] * s[j * n + k];
        s[j * n + j] = sqrt(s[j * n + j]);
        for (i = j + 1; i < n; i++) {
            for (k = 0; k < j; k++)
                s[i * n + j] -= s[i * n + k] * s[j * n + k];
            s[i * n + j] = s[i * n + j] / s[j * n + j];
        }
    }
}

void dense_objective(int n, const double *a, const double *c, double *out)
{
    double *b = malloc((size_t)n * n * sizeof(double));
    double *f = malloc((size_t)n * n * sizeof(double));
    double *s = malloc((size_t)n * n * sizeof(double));
    double sum = 0.0, logdet = 0.0;
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            b[i * n + j] = c[i * n + j];
            f[i * n + j] = a[i * n + j] / n + (i == j ? 1.0 : 0.0);
            s[i * n + j] = 0.5 * (c[i * n + j] + c[j * n + i]) / n + (i == j ? 1.0 : 0.0);
        }
    trmm(n, a, b);
    lu(n, f);
    cholesky(n, s);
    for (i = 0; i < n * n; i++)
        sum = sum + b[i] * b[i];
    for (i = 0; i < n; i++)
        logdet = logdet + log(fabs(f[i * n + i])) + 2.0 * log(s[i * n + i]);
    *out = sum / ((double)n * n) + logdet;
    free(b);
    free(f);
    free(s);
}
