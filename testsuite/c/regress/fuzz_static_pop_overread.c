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
flags: -I ../include
*/
#include <math.h>
#ifdef __adgen__
double ddot_(const int *n, const double *dx, const int *incx, const double *dy, const int *incy);
void daxpy_(const int *n, const double *da, const double *dx, const int *incx, double *dy, const int *incy);
void dscal_(const int *n, const double *da, double *dx, const int *incx);
void dcopy_(const int *n, const double *dx, const int *incx, double *dy, const int *incy);
#else
#include "fblas_reference.h"    /* a BLAS library's part, when the primal is compiled */
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
