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
/* The single-precision CBLAS level-1 kernels, by adgen's built-in rules: the float twin of
 * blas_kernels.c (a strided copy and norm, dot products, an axpy into an array read
 * afterwards and a scaling, in a loop of sweeps). Finite differences in float are coarse,
 * hence the relaxed tolerances. */
#ifdef __adgen__
#include <cblas.h>
#else
#include "cblas_reference.h"     /* a BLAS library's part, when the primal is compiled */
#endif
#include <math.h>

void fit(int n, const float *w, const float *x, float *r, float *loss)
{
    float a, nrm;
    int k;
    cblas_scopy(n, w, 2, r, 1);                 /* the even elements of w */
    for (k = 0; k < 3; k++) {
        a = cblas_sdot(n, r, 1, x, 1) / n;
        cblas_saxpy(n, -0.3f * a, x, 1, r, 1);
        cblas_sscal(n, 1.0f + 0.1f * sinf(a), r, 1);
    }
    nrm = cblas_snrm2(n, w + 1, 2);             /* the odd elements of w */
    loss[0] = cblas_sdot(n, r, 1, r, 1) + nrm * a;
}
