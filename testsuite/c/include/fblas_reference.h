/* Reference Fortran BLAS level-1 kernels under gfortran's symbols, standing in for a BLAS
   library when the test programs that call them from C are compiled (adgen sees only the
   programs' prototypes). */
#include "cblas_reference.h"

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
