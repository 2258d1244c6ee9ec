/* adgen-test
head: attention(out)/(x wq wk wv)
arg T: int = 4
arg D: int = 3
arg x: double[T*D] = uniform(-1, 1)
arg wq: double[D*D] = uniform(-0.7, 0.7)
arg wk: double[D*D] = uniform(-0.7, 0.7)
arg wv: double[D*D] = uniform(-0.7, 0.7)
arg out: double[T*D]
*/
/* One causal self-attention head: projections Q = X Wq, K = X Wk, V = X Wv through a
 * generic matmul helper (row-major, with leading dimensions), scaled dot-product scores,
 * a causal mask by skipping future positions (continue), a numerically stable softmax
 * per row, and a residual connection.  Scratch is one malloc'd block carved by offsets. */
#include <math.h>
#include <stdlib.h>

static void matmul(int m, int n, int k, const double *A, int lda, const double *B, int ldb,
                   double *C, int ldc)
{
    int i, j, p;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            double acc = 0.0;
            for (p = 0; p < k; p++)
                acc += A[i * lda + p] * B[p * ldb + j];
            C[i * ldc + j] = acc;
        }
}

void attention(int T, int D, const double *x, const double *wq, const double *wk,
               const double *wv, double *out)
{
    double *buf = malloc((size_t)(3 * T * D + T) * sizeof(double));
    double *Q = buf, *K = buf + T * D, *V = buf + 2 * T * D, *w = buf + 3 * T * D;
    const double scale = 1.0 / sqrt((double)D);
    int t, s, d;

    matmul(T, D, D, x, D, wq, D, Q, D);
    matmul(T, D, D, x, D, wk, D, K, D);
    matmul(T, D, D, x, D, wv, D, V, D);
    for (t = 0; t < T; t++) {
        double mx = -INFINITY, z = 0.0;
        for (s = 0; s < T; s++) {
            double sc = 0.0;
            if (s > t)
                continue;
            for (d = 0; d < D; d++)
                sc += Q[t * D + d] * K[s * D + d];
            w[s] = sc * scale;
            mx = fmax(mx, w[s]);
        }
        for (s = 0; s <= t; s++) {
            w[s] = exp(w[s] - mx);
            z += w[s];
        }
        for (d = 0; d < D; d++) {
            double acc = 0.0;
            for (s = 0; s <= t; s++)
                acc += w[s] * V[s * D + d];
            out[t * D + d] = x[t * D + d] + acc / z;
        }
    }
    free(buf);
}
