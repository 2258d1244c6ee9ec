/* adgen-test
head: fit(loss)/(w x)
arg n: int = 6
arg w: double[2*n] = uniform(-1, 1)
arg x: double[n] = uniform(0.5, 1.5)
arg r: double[2*n]
arg loss: double[1]
flags: -I include
*/
/* The twin of blas_kernels.c with the Fortran BLAS called from C: the kernels under
 * gfortran's symbols (ddot_, daxpy_, ...), every argument by reference, declared by the
 * program itself (here with its own parameter names, and one without any) and defined by
 * the BLAS library it links. adgen differentiates the calls by its built-in rules. */
#include <math.h>
#ifdef __adgen__
double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy);
double dnrm2_(const int *, const double *, const int *);
void daxpy_(int *n, double *alpha, double *x, int *incx, double *y, int *incy);
void dscal_(const int *n, const double *alpha, double *x, const int *incx);
void dcopy_(const int *n, const double *src, const int *inc_src, double *dst,
            const int *inc_dst);
#else
#include "fblas_reference.h"    /* a BLAS library's part, when the primal is compiled */
#endif

void fit(int n, const double *w, const double *x, double *r, double *loss)
{
    double a = 0.0, nrm, c;
    int k, one = 1, two = 2;
    dcopy_(&n, w, &two, r, &one);               /* the even elements of w */
    for (k = 0; k < 3; k++) {
        a = ddot_(&n, r, &one, x, &one) / n;
        c = -0.3 * a;
        daxpy_(&n, &c, (double *)x, &one, r, &one);
        c = 1.0 + 0.1 * sin(a);
        dscal_(&n, &c, r, &one);
    }
    nrm = dnrm2_(&n, w + 1, &two);              /* the odd elements of w */
    loss[0] = ddot_(&n, r, &one, r, &one) + nrm * a;
}
