#include <math.h>
void f_b(int n, const double *x, double *xb, double a, double *ab, double *y, double *yb, double fb)
{
    double s = 0, sb;
    int i;
    for (i = 0; i < n; i++) { y[i] = a * sin(x[i]); s += x[i] * x[i]; }
    *ab = s * fb;
    sb = a * fb;
    for (i = 0; i < n; i++) {
        xb[i] = 2 * x[i] * sb + a * cos(x[i]) * yb[i];
        *ab += sin(x[i]) * yb[i];
        yb[i] = 0;
    }
}
