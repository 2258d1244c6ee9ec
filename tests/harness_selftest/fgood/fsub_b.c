/* hand-written adjoint of fsub (tiny.f90), for tests/test_harness.py */
#include <math.h>
extern double __tinymod_MOD_scale;

void fsub_b_(int *n, double *x, double *xb, double *a, double *ab, double *y, double *yb,
             double *s, double *sb)
{
    int i;
    double t;
    *s = 0.0;
    for (i = 0; i < *n; i++) {
        y[i] = *a * sin(x[i]) * __tinymod_MOD_scale;
        *s = *s + y[i] * x[i];
    }
    *ab = 0.0;
    for (i = 0; i < *n; i++) {
        t = yb[i] + *sb * x[i];
        xb[i] = t * *a * cos(x[i]) * __tinymod_MOD_scale + *sb * y[i];
        *ab += t * sin(x[i]) * __tinymod_MOD_scale;
        yb[i] = 0.0;
    }
    *sb = 0.0;
}
