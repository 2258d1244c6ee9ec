/* adgen-test
head: fit(loss)/(w x)
arg n: int = 6
arg w: double[2*n] = uniform(-1, 1)
arg x: double[n] = uniform(0.5, 1.5)
arg r: double[2*n]
arg loss: double[1]
flags: -I include
*/
/* Calls of CBLAS level-1 kernels, which adgen does not see the code of and differentiates
 * by its built-in rules: a strided dot product and norm, an axpy into an array that is
 * read afterwards, a scaling and a copy, in a loop of Gauss-Seidel-like sweeps. */
#ifdef __adgen__
#include <cblas.h>
#else
#include "cblas_reference.h"     /* a BLAS library's part, when the primal is compiled */
#endif
#include <math.h>

void fit(int n, const double *w, const double *x, double *r, double *loss)
{
    double a, nrm;
    int k;
    cblas_dcopy(n, w, 2, r, 1);                 /* the even elements of w */
    for (k = 0; k < 3; k++) {
        a = cblas_ddot(n, r, 1, x, 1) / n;
        cblas_daxpy(n, -0.3 * a, x, 1, r, 1);
        cblas_dscal(n, 1.0 + 0.1 * sin(a), r, 1);
    }
    nrm = cblas_dnrm2(n, w + 1, 2);             /* the odd elements of w */
    loss[0] = cblas_ddot(n, r, 1, r, 1) + nrm * a;
}
