/* regress (fuzz seed 4400069, minimized), --stack=static: gcc -O3 judged that a pop of 32 bytes in a helper's backward sweep could read past the end of the static stack buffer (-Werror=stringop-overread), as it could not tell that the log's bottom stays inside the buffer; the pop now also tests the top against the buffer's size */
/* adgen-test
head: fz_head(y)/(x)
arg n: int = 6
arg d: int = 2
arg x: double[n] = uniform(0, 1)
arg y: double[n]
tol: 1e-5
sizes: give
seed: 70
*/
#include <math.h>
#ifdef __adgen__
double ddot_(const int *n, const double *dx, const int *incx, const double *dy, const int *incy);
void daxpy_(const int *n, const double *da, const double *dx, const int *incx, double *dy, const int *incy);
void dscal_(const int *n, const double *da, double *dx, const int *incx);
void dcopy_(const int *n, const double *dx, const int *incx, double *dy, const int *incy);
#else
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
/* Reference Fortran BLAS level-1 kernels under gfortran's symbols, standing in for a BLAS
   library when the test programs that call them from C are compiled (adgen sees only the
   programs' prototypes). */

double ddot_(const int *n, const double *dx, const int *incx, const double *dy,
             const int *incy)
{
    return cblas_ddot(*n, dx, *incx, dy, *incy);
}

double dnrm2_(const int *n, const double *x, const int *incx)
{
    return cblas_dnrm2(*n, x, *incx);
}

void daxpy_(const int *n, const double *da, const double *dx, const int *incx, double *dy,
            const int *incy)
{
    cblas_daxpy(*n, *da, dx, *incx, dy, *incy);
}

void dscal_(const int *n, const double *da, double *dx, const int *incx)
{
    cblas_dscal(*n, *da, dx, *incx);
}

void dcopy_(const int *n, const double *dx, const int *incx, double *dy, const int *incy)
{
    cblas_dcopy(*n, dx, *incx, dy, *incy);
}

float sdot_(const int *n, const float *sx, const int *incx, const float *sy,
            const int *incy)
{
    return cblas_sdot(*n, sx, *incx, sy, *incy);
}

float snrm2_(const int *n, const float *x, const int *incx)
{
    return cblas_snrm2(*n, x, *incx);
}

void saxpy_(const int *n, const float *sa, const float *sx, const int *incx, float *sy,
            const int *incy)
{
    cblas_saxpy(*n, *sa, sx, *incx, sy, *incy);
}

void sscal_(const int *n, const float *sa, float *sx, const int *incx)
{
    cblas_sscal(*n, *sa, sx, *incx);
}

void scopy_(const int *n, const float *sx, const int *incx, float *sy, const int *incy)
{
    cblas_scopy(*n, sx, *incx, sy, *incy);
}
#endif

double fz_f2(int m, const double *u)
{
    double sink = 0.0;
    for (int i = 0; i < m; i += 2) {
        double t1[4];
        for (int j = 0; j < 4; j++) {
            t1[j] = 0.5;
        }
        sink += t1[0];
    }
    if (0.5 >= (-0.2)) {
        const double *p1 = &u[0];
        sink += p1[0];
    } else {
        for (int j = 0; j < m; ++j) {
            int nb1 = 1;
            int nb2 = 1;
            int nb3 = 1;
            double s1 = ddot_(&nb1, u, &nb2, u, &nb3);
            sink += s1;
        }
    }
    return sink;
}

void fz_head(int n, int d, const double *x, double *y)
{
    int i;
    double sink = 0.0;
    for (i = 0; i < n; i++) {
        y[i] = 0.5;
    }
    int k1 = 0;
    do {
        double s1 = fz_f2(d, x + (k1 + 1) % 5) * fz_f2(d, x + (k1 + 1) % 5);
        k1++;
        sink += s1;
    } while (k1 < d);
    y[0] = sink;
}
