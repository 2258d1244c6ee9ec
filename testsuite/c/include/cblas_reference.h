/* Reference CBLAS level-1 kernels, double and single precision, standing in for a BLAS
   library when the test programs that call them are compiled (adgen reads its own
   <cblas.h>: it never sees these). */
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
