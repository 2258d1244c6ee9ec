#include <math.h>
double f_d(int n, const double *x, const double *xd, double a, double ad, double *y, double *yd, double *f)
{
    double s = 0, sd = 0;
    int i;
    for (i = 0; i < n; i++) {
        yd[i] = ad * sin(x[i]) + a * cos(x[i]) * xd[i];
        y[i] = a * sin(x[i]);
        sd += 2 * x[i] * xd[i];
        s += x[i] * x[i];
    }
    *f = s * a;
    return sd * a + s * ad;
}
