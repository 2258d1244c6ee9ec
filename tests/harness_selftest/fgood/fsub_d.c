/* hand-written tangent of fsub (tiny.f90), for tests/test_harness.py */
#include <math.h>
extern double __tinymod_MOD_scale;

void fsub_d_(int *n, double *x, double *xd, double *a, double *ad, double *y, double *yd,
             double *s, double *sd)
{
    int i;
    *s = 0.0;
    *sd = 0.0;
    for (i = 0; i < *n; i++) {
        y[i] = *a * sin(x[i]) * __tinymod_MOD_scale;
        yd[i] = (*ad * sin(x[i]) + *a * cos(x[i]) * xd[i]) * __tinymod_MOD_scale;
        *sd = *sd + yd[i] * x[i] + y[i] * xd[i];
        *s = *s + y[i] * x[i];
    }
}
