/* adgen-test
head: fit(loss)/(w x)
arg n: int = 6
arg w: float[2*n] = uniform(-1, 1)
arg x: float[n] = uniform(0.5, 1.5)
arg r: float[2*n]
arg loss: float[1]
flags: -I include
tol: 2e-3
dot_tol: 1e-5
*/
/* The single-precision twin of blas_fortran_kernels.c: the Fortran BLAS kernels sdot_,
 * saxpy_, ... called from C, every argument by reference, declared by the program itself
 * (with its own parameter names, and one without any). Finite differences in float are
 * coarse, hence the relaxed tolerances. */
#include <math.h>
#ifdef __adgen__
float sdot_(const int *n, const float *x, const int *incx, const float *y, const int *incy);
float snrm2_(const int *, const float *, const int *);
void saxpy_(int *n, float *alpha, float *x, int *incx, float *y, int *incy);
void sscal_(const int *n, const float *alpha, float *x, const int *incx);
void scopy_(const int *n, const float *src, const int *inc_src, float *dst,
            const int *inc_dst);
#else
#include "fblas_reference.h"    /* a BLAS library's part, when the primal is compiled */
#endif

void fit(int n, const float *w, const float *x, float *r, float *loss)
{
    float a = 0.0f, nrm, c;
    int k, one = 1, two = 2;
    scopy_(&n, w, &two, r, &one);               /* the even elements of w */
    for (k = 0; k < 3; k++) {
        a = sdot_(&n, r, &one, x, &one) / n;
        c = -0.3f * a;
        saxpy_(&n, &c, (float *)x, &one, r, &one);
        c = 1.0f + 0.1f * sinf(a);
        sscal_(&n, &c, r, &one);
    }
    nrm = snrm2_(&n, w + 1, &two);              /* the odd elements of w */
    loss[0] = sdot_(&n, r, &one, r, &one) + nrm * a;
}
