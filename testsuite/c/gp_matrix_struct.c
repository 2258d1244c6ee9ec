/* adgen-test
head: gp_neg_loglik(gp_neg_loglik)/(hyp y)
arg n: int = 6
arg t: double[n] = uniform(0, 3)
arg y: double[n] = uniform(-1, 1)
arg hyp: double[3] = uniform(-0.5, 0.3)
*/
/* Gaussian-process negative log marginal likelihood with a squared-exponential kernel.
 * log-parameters hyp = (log amplitude, log length scale, log noise).  The covariance is a
 * Matrix {rows, cols, data} (struct on the stack, data on the heap), factored in place by a Cholesky helper; the
 * solves are forward / back substitution through the same struct. */
#include <math.h>
#include <stdlib.h>

typedef struct {
    int rows, cols;
    double *data;
} Matrix;

#define MAT(m, i, j) ((m)->data[(size_t)(i) * (size_t)(m)->cols + (size_t)(j)])

static void matrix_init(Matrix *m, int rows, int cols)
{
    m->rows = rows;
    m->cols = cols;
    m->data = calloc((size_t)rows * (size_t)cols, sizeof(double));
}

static void matrix_release(Matrix *m)
{
    free(m->data);
    m->data = NULL;
}

/* lower Cholesky factor, in place (upper part left alone) */
static void cholesky(Matrix *A)
{
    int i, j, k;
    for (j = 0; j < A->rows; j++) {
        double d = MAT(A, j, j);
        for (k = 0; k < j; k++)
            d -= MAT(A, j, k) * MAT(A, j, k);
        d = sqrt(d);
        MAT(A, j, j) = d;
        for (i = j + 1; i < A->rows; i++) {
            double s = MAT(A, i, j);
            for (k = 0; k < j; k++)
                s -= MAT(A, i, k) * MAT(A, j, k);
            MAT(A, i, j) = s / d;
        }
    }
}

/* solve L z = b (forward substitution), z may alias b */
static void solve_lower(const Matrix *L, const double *b, double *z)
{
    int i, k;
    for (i = 0; i < L->rows; i++) {
        double s = b[i];
        for (k = 0; k < i; k++)
            s -= MAT(L, i, k) * z[k];
        z[i] = s / MAT(L, i, i);
    }
}

double gp_neg_loglik(int n, const double *t, const double *y, const double *hyp)
{
    const double amp2 = exp(2.0 * hyp[0]);
    const double ell = exp(hyp[1]);
    const double noise2 = exp(2.0 * hyp[2]);
    Matrix Kmat, *K = &Kmat;
    double *alpha = malloc((size_t)n * sizeof(double));
    double quad = 0.0, logdet = 0.0;
    int i, j;

    matrix_init(K, n, n);

    for (i = 0; i < n; i++) {
        for (j = 0; j <= i; j++) {
            double r = (t[i] - t[j]) / ell;
            MAT(K, i, j) = amp2 * exp(-0.5 * r * r);
            MAT(K, j, i) = MAT(K, i, j);
        }
        MAT(K, i, i) += noise2 + 1e-6;
    }
    cholesky(K);
    solve_lower(K, y, alpha);
    for (i = 0; i < n; i++) {
        quad += alpha[i] * alpha[i];
        logdet += log(MAT(K, i, i));
    }
    free(alpha);
    matrix_release(K);
    return 0.5 * quad + logdet + 0.5 * n * log(2.0 * 3.14159265358979323846);
}
