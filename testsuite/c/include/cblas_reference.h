/* Reference CBLAS kernels (level 1, gemv and gemm), double and single precision, standing
   in for a BLAS library when the test programs that call them are compiled (adgen reads its
   own <cblas.h>: it never sees these). */
#include <math.h>

double cblas_ddot(const int N, const double *X, const int incX, const double *Y,
                  const int incY)
{
    double s = 0.0;
    int i;
    for (i = 0; i < N; i++)
        s += X[i * incX] * Y[i * incY];
    return s;
}

double cblas_dnrm2(const int N, const double *X, const int incX)
{
    return sqrt(cblas_ddot(N, X, incX, X, incX));
}

void cblas_daxpy(const int N, const double alpha, const double *X, const int incX,
                 double *Y, const int incY)
{
    int i;
    for (i = 0; i < N; i++)
        Y[i * incY] += alpha * X[i * incX];
}

void cblas_dscal(const int N, const double alpha, double *X, const int incX)
{
    int i;
    for (i = 0; i < N; i++)
        X[i * incX] *= alpha;
}

void cblas_dcopy(const int N, const double *X, const int incX, double *Y, const int incY)
{
    int i;
    for (i = 0; i < N; i++)
        Y[i * incY] = X[i * incX];
}

float cblas_sdot(const int N, const float *X, const int incX, const float *Y,
                 const int incY)
{
    float s = 0.0;
    int i;
    for (i = 0; i < N; i++)
        s += X[i * incX] * Y[i * incY];
    return s;
}

float cblas_snrm2(const int N, const float *X, const int incX)
{
    return sqrtf(cblas_sdot(N, X, incX, X, incX));
}

void cblas_saxpy(const int N, const float alpha, const float *X, const int incX,
                 float *Y, const int incY)
{
    int i;
    for (i = 0; i < N; i++)
        Y[i * incY] += alpha * X[i * incX];
}

void cblas_sscal(const int N, const float alpha, float *X, const int incX)
{
    int i;
    for (i = 0; i < N; i++)
        X[i * incX] *= alpha;
}

void cblas_scopy(const int N, const float *X, const int incX, float *Y, const int incY)
{
    int i;
    for (i = 0; i < N; i++)
        Y[i * incY] = X[i * incX];
}

enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };

/* where element (i, j) of op(M) is stored */
static int ref_blas_at(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE trans,
                       const int ld, const int i, const int j)
{
    int row = trans == CblasNoTrans ? i : j, col = trans == CblasNoTrans ? j : i;
    return order == CblasRowMajor ? row * ld + col : row + col * ld;
}

/* Y = alpha op(A) X + beta Y, A an M x N matrix; Y not read when beta is 0 */
void cblas_dgemv(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA, const int M,
                 const int N, const double alpha, const double *A, const int lda,
                 const double *X, const int incX, const double beta, double *Y,
                 const int incY)
{
    int rows = TransA == CblasNoTrans ? M : N, cols = TransA == CblasNoTrans ? N : M;
    int i, j;
    for (i = 0; i < rows; i++) {
        double s = 0.0;
        for (j = 0; j < cols; j++)
            s += A[ref_blas_at(Order, TransA, lda, i, j)] * X[j * incX];
        Y[i * incY] = alpha * s + (beta != 0.0 ? beta * Y[i * incY] : 0.0);
    }
}

/* C = alpha op(A) op(B) + beta C, op(A) M x K, op(B) K x N; C not read when beta is 0 */
void cblas_dgemm(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA,
                 const enum CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
                 const double alpha, const double *A, const int lda, const double *B,
                 const int ldb, const double beta, double *C, const int ldc)
{
    int i, j, k, c;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            double s = 0.0;
            for (k = 0; k < K; k++)
                s += A[ref_blas_at(Order, TransA, lda, i, k)] *
                     B[ref_blas_at(Order, TransB, ldb, k, j)];
            c = ref_blas_at(Order, CblasNoTrans, ldc, i, j);
            C[c] = alpha * s + (beta != 0.0 ? beta * C[c] : 0.0);
        }
}

void cblas_sgemv(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA, const int M,
                 const int N, const float alpha, const float *A, const int lda,
                 const float *X, const int incX, const float beta, float *Y,
                 const int incY)
{
    int rows = TransA == CblasNoTrans ? M : N, cols = TransA == CblasNoTrans ? N : M;
    int i, j;
    for (i = 0; i < rows; i++) {
        float s = 0.0;
        for (j = 0; j < cols; j++)
            s += A[ref_blas_at(Order, TransA, lda, i, j)] * X[j * incX];
        Y[i * incY] = alpha * s + (beta != 0.0 ? beta * Y[i * incY] : 0.0);
    }
}

void cblas_sgemm(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA,
                 const enum CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
                 const float alpha, const float *A, const int lda, const float *B,
                 const int ldb, const float beta, float *C, const int ldc)
{
    int i, j, k, c;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            float s = 0.0;
            for (k = 0; k < K; k++)
                s += A[ref_blas_at(Order, TransA, lda, i, k)] *
                     B[ref_blas_at(Order, TransB, ldb, k, j)];
            c = ref_blas_at(Order, CblasNoTrans, ldc, i, j);
            C[c] = alpha * s + (beta != 0.0 ? beta * C[c] : 0.0);
        }
}
