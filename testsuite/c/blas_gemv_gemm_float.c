/* adgen-test
head: layer(loss)/(W V b x)
arg n: int = 4
arg m: int = 3
arg W: float[m*n] = uniform(-1, 1)
arg V: float[n*m] = uniform(-1, 1)
arg b: float[m] = uniform(-0.5, 0.5)
arg x: float[n] = uniform(-1, 1)
arg loss: float[1]
flags: -I include
tol: 2e-3
dot_tol: 1e-5
*/
/* The single-precision twin of blas_gemv_gemm.c: CBLAS sgemv and sgemm, differentiated by
 * adgen's built-in rules. */
#ifdef __adgen__
#include <cblas.h>
#else
#include "cblas_reference.h"     /* a BLAS library's part, when the primal is compiled */
#endif
#include <math.h>

void layer(int n, int m, const float *W, const float *V, const float *b,
           const float *x, float *loss)
{
    float h[8], g[8], P[16], Q[16];
    float alpha;
    int i;
    for (i = 0; i < m; i++)
        h[i] = b[i];
    cblas_sgemv(CblasRowMajor, CblasNoTrans, m, n, 1.0, W, n, x, 1, 1.0, h, 1);
    for (i = 0; i < m; i++)
        h[i] = tanhf(h[i]);
    /* g = W^T h: W read by rows as an n x m matrix's transpose */
    cblas_sgemv(CblasRowMajor, CblasTrans, m, n, 0.5, W, n, h, 1, 0.0, g, 1);
    alpha = 0.5f + 0.25f * sinf(g[0]);
    /* P (m x m, column-major, leading dimension m + 1) = alpha W V, W m x n, V n x m
       (both read in column-major: W's storage is W^T there, so op = transposed) */
    cblas_sgemm(CblasColMajor, CblasTrans, CblasTrans, m, m, n, alpha, W, n, V, m, 0.0, P,
                m + 1);
    /* Q = P^T P + 0.5 Q with Q set first: beta nonzero */
    for (i = 0; i < 16; i++)
        Q[i] = 0.1 * i;
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, m, m, 1.0, P, m + 1, P, m + 1,
                0.5, Q, m);
    *loss = 0.0;
    for (i = 0; i < m * m; i++)
        *loss += Q[i] * Q[i];
    for (i = 0; i < n; i++)
        *loss += g[i] * x[i];
}
