/* adgen-test
head: layer(loss)/(W V b x)
arg n: int = 4
arg m: int = 3
arg W: double[m*n] = uniform(-1, 1)
arg V: double[n*m] = uniform(-1, 1)
arg b: double[m] = uniform(-0.5, 0.5)
arg x: double[n] = uniform(-1, 1)
arg loss: double[1]
flags: -I include
*/
/* CBLAS gemv and gemm, differentiated by adgen's built-in rules: a dense layer h = W x + b
 * (row-major, then transposed), a Gram-like product of two matrices in column-major
 * storage with both transposes and a leading dimension larger than the rows, beta 0 on
 * an output that starts uninitialised, beta nonzero on an in/out one, and a scaling
 * alpha that depends on the inputs. */
#ifdef __adgen__
#include <cblas.h>
#else
#include "cblas_reference.h"     /* a BLAS library's part, when the primal is compiled */
#endif
#include <math.h>

void layer(int n, int m, const double *W, const double *V, const double *b,
           const double *x, double *loss)
{
    double h[8], g[8], P[16], Q[16];
    double alpha;
    int i;
    for (i = 0; i < m; i++)
        h[i] = b[i];
    cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, 1.0, W, n, x, 1, 1.0, h, 1);
    for (i = 0; i < m; i++)
        h[i] = tanh(h[i]);
    /* g = W^T h: W read by rows as an n x m matrix's transpose */
    cblas_dgemv(CblasRowMajor, CblasTrans, m, n, 0.5, W, n, h, 1, 0.0, g, 1);
    alpha = 0.5 + 0.25 * sin(g[0]);
    /* P (m x m, column-major, leading dimension m + 1) = alpha W V, W m x n, V n x m
       (both read in column-major: W's storage is W^T there, so op = transposed) */
    cblas_dgemm(CblasColMajor, CblasTrans, CblasTrans, m, m, n, alpha, W, n, V, m, 0.0, P,
                m + 1);
    /* Q = P^T P + 0.5 Q with Q set first: beta nonzero */
    for (i = 0; i < 16; i++)
        Q[i] = 0.1 * i;
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, m, m, 1.0, P, m + 1, P, m + 1,
                0.5, Q, m);
    *loss = 0.0;
    for (i = 0; i < m * m; i++)
        *loss += Q[i] * Q[i];
    for (i = 0; i < n; i++)
        *loss += g[i] * x[i];
}
